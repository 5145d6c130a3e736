import { crashSuite } from './suite.js';

crashSuite('append', { spread: 6, start: true });
