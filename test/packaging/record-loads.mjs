// Preloaded with `node --import`: installs load-hooks.mjs, logging to $CONDENSE_LOAD_LOG.
import { register } from 'node:module';

register('./load-hooks.mjs', import.meta.url, { data: { log: process.env.CONDENSE_LOAD_LOG } });
