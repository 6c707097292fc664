// Bounds of the merchant's alert settings, shared by the admin page and the domain.
export const LOW_STOCK_THRESHOLD_MAX = 1000;
export const SENDER_NAME_MAX = 60;
