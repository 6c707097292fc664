// Bounds of the per-shop attribution window, shared by the domain and the admin form.
export const ATTRIBUTION_WINDOW_DAYS = { min: 1, max: 90, default: 30 } as const;
