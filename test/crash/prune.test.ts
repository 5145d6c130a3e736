import { crashSuite } from './suite.js';

crashSuite('prune', { spread: 6 });
