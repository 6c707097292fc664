// Bounds of the merchant's alert settings, shared by the admin page and the domain.
export const LOW_STOCK_THRESHOLD_MAX = 1000;
export const SENDER_NAME_MAX = 60;
/** Days between reminder digests the merchant can choose: off (the default), weekly, every 2 weeks, monthly. */
export const REMINDER_DAYS = [0, 7, 14, 30] as const;
export const isReminderDays = (value: number): value is (typeof REMINDER_DAYS)[number] => (REMINDER_DAYS as readonly number[]).includes(value);
