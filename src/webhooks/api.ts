// What other features may use of webhooks: nothing yet (events reach webhooks through domain events).
export {};
