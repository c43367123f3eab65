export { buildBff, type BffOptions } from './app.js';
export { API_ROUTES, type ApiRoute } from './routes.js';
export { loadBffConfig, ZBffEnv } from './config.js';
