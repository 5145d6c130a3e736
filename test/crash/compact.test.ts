import { crashSuite } from './suite.js';

crashSuite('compact', { spread: 6 });
