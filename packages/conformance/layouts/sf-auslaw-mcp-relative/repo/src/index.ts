// The server's source; the build writes scripts/server.js.
export {};
