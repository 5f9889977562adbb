/** See plain-environment.js: process.env without npm's variables and without node_modules/.bin on PATH. */
export function plainEnvironment(env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
