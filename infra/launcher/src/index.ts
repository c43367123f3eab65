export { startEmbedded, type EmbeddedOptions, type EmbeddedProduct } from './embedded.js';
