// Finding 7 of a2a-interop/README.md, by hand: a scripted agent on 127.0.0.1 whose SSE stream
// ends cleanly (the response is finished, no connection error) while its task is WORKING,
// then driver.mjs's stream action against it. The SDK's client ends the stream without an
// error and without resyncing, so the driver reports TASK_STATE_WORKING and no error.
//   node a2a-interop/js-client/clean-close.mjs [--port N]
import http from 'node:http';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const i = process.argv.indexOf('--port');
const port = i > 0 ? Number(process.argv[i + 1]) : 0;
const server = http.createServer((req, res) => {
  const base = `http://127.0.0.1:${server.address().port}`;
  if (req.url.startsWith('/.well-known/agent-card.json')) {
    res.setHeader('Content-Type', 'application/json');
    return res.end(JSON.stringify({ name: 'clean-close', description: 'ends its streams early', version: '1.0.0',
      capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
      skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
      supportedInterfaces: [{ url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }));
  }
  let body = '';
  req.on('data', (d) => { body += d; }).on('end', () => {
    const { id } = JSON.parse(body);
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    const ev = (result) => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`);
    ev({ task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_SUBMITTED' } } });
    ev({ statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } });
    setTimeout(() => res.end(), 100); // a clean end while the task is still WORKING
  });
});
await new Promise((r) => server.listen(port, '127.0.0.1', r));
const driver = fileURLToPath(new URL('./driver.mjs', import.meta.url));
const child = spawn(process.execPath, [driver], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env,
  A2A_CONFORM_CARD_URL: `http://127.0.0.1:${server.address().port}/.well-known/agent-card.json`,
  A2A_CONFORM_ACTION: 'stream', A2A_CONFORM_TEXT: 'hello', A2A_CONFORM_TIMEOUT: '10' } });
let out = '';
child.stdout.on('data', (d) => { out += d; });
await new Promise((r) => child.on('close', r));
server.close();
console.log(out.trim());
