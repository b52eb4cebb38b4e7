/** The reporters ccc has built in, by the name the config's `reporters` gives them; any other name is a module (reporter-module.ts). A leaf. */
export const BUILT_IN_REPORTERS: readonly string[] = ['notify'];
