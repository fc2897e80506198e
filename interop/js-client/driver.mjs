// a2a-conform client driver on the official JS SDK's client (@a2a-js/sdk 1.3.0), per
// docs/client-driver.md: one action per run, with the SDK's ordinary API and its defaults
// (ClientFactory, createFromUrl, sendMessage, sendMessageStream, getTask, cancelTask,
// resubscribeTask), and no guard the SDK does not have: what this driver reports is what an
// orchestrator written plainly on the SDK would believe (the last state it saw).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { ClientFactory } from '@a2a-js/sdk/client';
import { Role, TaskState, StreamResponse, taskStateToJSON } from '@a2a-js/sdk';

const env = process.env;
const action = env.A2A_CONFORM_ACTION ?? '';
const budgetMs = (Number(env.A2A_CONFORM_TIMEOUT) || 20) * 1000 - 1500; // time left to print
const signal = AbortSignal.timeout(budgetMs);
const out = { action, taskId: '', contextId: '', state: '', error: null, events: [], interface: null, warnings: [] };
const S = TaskState;
const terminal = (s) => [S.TASK_STATE_COMPLETED, S.TASK_STATE_FAILED, S.TASK_STATE_CANCELED, S.TASK_STATE_REJECTED].includes(s);
const stops = (s) => terminal(s) || s === S.TASK_STATE_INPUT_REQUIRED || s === S.TASK_STATE_AUTH_REQUIRED;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let state; // the numeric state the client last saw for its task

// see records one thing the client received (a Task or Message result, or a StreamResponse)
// and tracks the task it belongs to.
function see(via, x) {
  const [kind, v] = x.payload ? [{ task: 'task', message: 'message', statusUpdate: 'status', artifactUpdate: 'artifact' }[x.payload.$case], x.payload.value]
    : ['messageId' in x ? 'message' : 'task', x];
  const taskId = kind === 'task' ? v.id : v.taskId ?? '';
  const st = kind === 'task' || kind === 'status' ? v.status?.state : undefined;
  out.events.push({ via, kind, taskId, state: st === undefined ? '' : taskStateToJSON(st), final: st !== undefined && stops(st) });
  if (taskId && !out.taskId && via !== 'push') out.taskId = taskId; // the client's task comes from its own calls
  merge(taskId, v.contextId, st);
}
function merge(taskId, contextId, st) {
  if (!taskId || taskId !== out.taskId) return;
  out.contextId = contextId || out.contextId;
  if (st !== undefined) state = st;
}

const message = (text, task) => ({
  messageId: randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }],
  ...(task ? { taskId: task.taskId, contextId: task.contextId } : {}),
});

async function resolve() {
  const client = await new ClientFactory().createFromUrl(env.A2A_CONFORM_CARD_URL, '');
  const t = client.transport.base ?? client.transport; // under the SDK's TenantTransportDecorator
  out.interface = { url: t.endpoint, protocolBinding: t.protocolName };
  out.events.push({ via: 'card', kind: 'card', taskId: '', state: '', final: false });
  return client;
}

async function consume(stream, onEvent) {
  for await (const ev of stream) { see('stream', ev); await onEvent?.(ev); }
}

async function pollUntilStopped(client) {
  while (out.taskId && !stops(state)) {
    await sleep(200);
    see('poll', await client.getTask({ id: out.taskId }, { signal }));
  }
}

async function sendThenPoll(client, text, returnImmediately) {
  see('response', await client.sendMessage({ message: message(text), configuration: { returnImmediately } }, { signal }));
  await pollUntilStopped(client);
}

// receivePushes serves the push receiver (the SDK has none: this is what an application writes,
// checking the token it registered), sends non-blocking with a push config and takes each push as it
// comes. push: until a push is terminal. push-cancel: once a push says WORKING, cancelTask; then
// until a push carries a terminal state other than CANCELED, or none has come for 3 s.
async function receivePushes(c, cancel) {
  const token = env.A2A_CONFORM_PUSH_TOKEN ?? '';
  let wake = () => {};
  const server = http.createServer((req, res) => {
    const auth = req.headers['x-a2a-notification-token'] ?? req.headers['a2a-notification-token'] ?? (req.headers.authorization ?? '').replace(/^Bearer /i, '');
    if (auth !== token) { res.writeHead(401).end(); return; }
    let body = '';
    req.on('data', (d) => { body += d; }).on('end', () => {
      try { see('push', StreamResponse.fromJSON(JSON.parse(body))); } catch (e) { out.warnings.push(`unreadable push: ${e.message}`); }
      res.writeHead(200).end();
      wake();
    });
  });
  // until resolves once ok() holds after a push (or now), or quietMs after the last push.
  const until = (ok, quietMs) => new Promise((resolve, reject) => {
    let timer;
    wake = () => {
      if (ok()) resolve();
      else if (quietMs) { clearTimeout(timer); timer = setTimeout(resolve, quietMs); }
    };
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    wake();
  });
  const [host, port] = env.A2A_CONFORM_WEBHOOK_LISTEN.split(/:(?=\d+$)/);
  await new Promise((r) => server.listen(Number(port), host.replace(/^\[|\]$/g, ''), r));
  try {
    const pushConfig = { url: env.A2A_CONFORM_WEBHOOK_URL, token };
    see('response', await c.sendMessage({ message: message(env.A2A_CONFORM_TEXT), configuration: { returnImmediately: true, taskPushNotificationConfig: pushConfig } }, { signal }));
    for (const e of out.events.filter((e) => e.via === 'push')) merge(e.taskId, '', e.state ? S[e.state] : undefined); // pushes that beat the answer
    if (!cancel) { await until(() => terminal(state)); return; }
    await until(() => state === S.TASK_STATE_WORKING || terminal(state));
    if (terminal(state)) return;
    see('response', await c.cancelTask({ id: out.taskId }, { signal }));
    await until(() => terminal(state) && state !== S.TASK_STATE_CANCELED, 3000);
  } finally { server.close(); server.closeAllConnections(); }
}

const actions = {
  send: async (c) => sendThenPoll(c, env.A2A_CONFORM_TEXT, false),
  poll: async (c) => sendThenPoll(c, env.A2A_CONFORM_TEXT, true),
  stream: async (c) => consume(c.sendMessageStream({ message: message(env.A2A_CONFORM_TEXT) }, { signal })),
  cancel: async (c) => {
    let asked = false;
    await consume(c.sendMessageStream({ message: message(env.A2A_CONFORM_TEXT) }, { signal }), async () => {
      if (asked || state !== S.TASK_STATE_WORKING) return;
      asked = true;
      see('response', await c.cancelTask({ id: out.taskId }, { signal }));
    });
    if (out.taskId) see('poll', await c.getTask({ id: out.taskId }, { signal }));
  },
  'follow-up': async (c) => {
    await sendThenPoll(c, env.A2A_CONFORM_TEXT, false);
    const first = { taskId: out.taskId, contextId: out.contextId };
    const r = await c.sendMessage({ message: message(env.A2A_CONFORM_FOLLOWUP_TEXT, first) }, { signal });
    see('response', r);
    const id = r.id ?? r.taskId;
    if (id && id !== first.taskId) { // the agent answered with another task: track that one
      out.resubmittedTaskId = out.taskId = id;
      merge(id, r.contextId, r.status?.state);
    }
    await pollUntilStopped(c);
  },
  subscribe: async (c) => {
    see('response', await c.sendMessage({ message: message(env.A2A_CONFORM_TEXT), configuration: { returnImmediately: true } }, { signal }));
    await consume(c.resubscribeTask({ id: out.taskId }, { signal }));
  },
  push: async (c) => receivePushes(c, false),
  'push-cancel': async (c) => receivePushes(c, true),
  resolve: async () => { await sleep(1000); await resolve(); }, // the SDK keeps no card cache
  list: async (c) => {
    await sendThenPoll(c, env.A2A_CONFORM_TEXT, false);
    const r = await c.listTasks({ contextId: out.contextId, status: state, pageSize: 10 }, { signal });
    for (const t of r.tasks ?? []) {
      out.events.push({ via: 'list', kind: 'task', taskId: t.id, state: taskStateToJSON(t.status?.state), final: false });
    }
  },
};

// classify maps what the SDK threw to the contract's error classes: an A2A error anywhere in
// the cause chain first (the SDK wraps an error sent inside an SSE event), then the rest.
const named = { TaskNotFoundError: 'task-not-found', UnsupportedOperationError: 'unsupported-operation',
  PushNotificationNotSupportedError: 'unsupported-operation', RequestMalformedError: 'invalid-params',
  ContentTypeNotSupportedError: 'invalid-params', TimeoutError: 'timeout', AbortError: 'timeout', SyntaxError: 'parse' };
function classify(e) {
  const chain = [];
  for (let c = e; c; c = c.cause) chain.push(c);
  const hit = chain.find((c) => named[c.name]);
  if (hit) return named[hit.name];
  for (const c of chain) {
    const m = c.message ?? '';
    if (['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(c.code) || m === 'fetch failed' || m === 'terminated') return 'transport';
    if ([401, 403].includes(c.statusCode) || /Status: 40[13]\b|: 40[13]\b/.test(m)) return 'auth';
    if (/Failed to parse|Unexpected token|not valid JSON/.test(m)) return 'parse';
    if (c.name === 'JsonRpcTransportError' || /JSON-RPC|Content-Type|Invalid response|SSE|missing/.test(m)) return 'protocol';
  }
  return 'other';
}

if (!actions[action]) {
  console.error(`unknown action ${JSON.stringify(action)}`);
  process.exit(2);
}
try {
  await actions[action](await resolve());
} catch (e) {
  const chain = [];
  for (let c = e; c; c = c.cause) chain.push(`${c.name}: ${c.message}`);
  out.error = { class: classify(e), message: chain.join(' <- ') };
  console.error(e);
}
out.state = state === undefined ? '' : taskStateToJSON(state);
console.log(JSON.stringify(out));
process.exit(0);
