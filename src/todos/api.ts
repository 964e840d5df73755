// What other features may use of to-dos: nothing yet. Everything else in this folder is internal.
export {};
