// The server's source; the build writes dist/index.js.
export {};
