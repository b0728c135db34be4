export { filesArea } from './handlers.js';
