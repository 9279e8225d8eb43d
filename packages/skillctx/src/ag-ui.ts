/** `skillctx/ag-ui`: a context's events as AG-UI protocol events. SCAFFOLD (owner: the events helper). */
export {};
