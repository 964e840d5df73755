// Tables of the notifications feature (filled in by that feature's migrations).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface NotificationsTables {}
