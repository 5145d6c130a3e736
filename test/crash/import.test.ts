import { crashSuite } from './suite.js';

crashSuite('import', { spread: 6 });
