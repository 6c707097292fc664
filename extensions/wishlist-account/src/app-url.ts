// Where the app's API answers (APP_URL). set-app-url.mjs writes it before a deploy.
export const APP_URL = "http://localhost:3000";
