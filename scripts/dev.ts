/**
 * `npm run dev`: the API server (restarted by tsx watch on server changes) plus Vite with hot reload,
 * which proxies /api, /auth and /websocket to the API server. Open http://localhost:5173/web/.
 */
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '8080';
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/main.ts'], { stdio: 'inherit', env: { ...process.env, PORT: port } }),
  spawn('npx', ['vite', '--host'], { stdio: 'inherit', env: { ...process.env, API_URL: `http://localhost:${port}` } }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => code && stop());
