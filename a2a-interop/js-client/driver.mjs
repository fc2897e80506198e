// a2a-conform client driver on the official JS SDK's client (@a2a-js/sdk 1.3.0), per
// docs/client-driver.md: one action per run, with the SDK's ordinary API and its defaults
// (ClientFactory, createFromUrl, sendMessage, sendMessageStream, getTask, cancelTask,
// resubscribeTask, listTasks). What the SDK leaves to the application (the push receiver, the
// state the client believes, the result line) is the harness's driver kit
// (clientkit/js/kit.mjs), so the verdicts that rest only on those judge the kit, not the SDK.
import { randomUUID, createPublicKey } from 'node:crypto';
import { ClientFactory, ClientFactoryOptions } from '@a2a-js/sdk/client';
import { Role, TaskState, taskStateToJSON, verifyAgentCardSignature } from '@a2a-js/sdk';
import { contract, Report, receiver, classify, pushState, terminal, stops } from '../../clientkit/js/kit.mjs';

const env = contract();
const { signal } = env;
const report = new Report(env.action);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// see records one thing the client received from the SDK: a Task or Message result, or a
// StreamResponse ({payload: {$case, value}}).
function see(via, x) {
  const [kind, v] = x.payload ? [{ task: 'task', message: 'message', statusUpdate: 'status', artifactUpdate: 'artifact' }[x.payload.$case], x.payload.value]
    : ['messageId' in x ? 'message' : 'task', x];
  const st = kind === 'task' || kind === 'status' ? v.status?.state : undefined;
  report.event(via, kind, kind === 'task' ? v.id : v.taskId ?? '', st === undefined ? '' : taskStateToJSON(st), v.contextId);
  return st === undefined ? '' : taskStateToJSON(st);
}

const message = (text, task) => ({
  messageId: randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }],
  ...(task ? { taskId: task.taskId, contextId: task.contextId } : {}),
});

// push-default gives the client its default push config, the SDK's clientConfig.pushNotificationConfig.
const factoryOptions = env.action === 'push-default'
  ? ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { clientConfig: { pushNotificationConfig: { url: env.webhookUrl, token: env.pushToken } } })
  : ClientFactoryOptions.default;
if (env.action === 'push-default') report.supplied['push-default'] = 'sdk';

async function resolve() {
  const client = await new ClientFactory(factoryOptions).createFromUrl(env.cardUrl, '');
  const t = client.transport.base ?? client.transport; // under the SDK's TenantTransportDecorator
  report.usedInterface(t.endpoint, t.protocolName);
  report.event('card', 'card');
  return client;
}

async function consume(stream, onEvent) {
  for await (const ev of stream) { see('stream', ev); await onEvent?.(); }
}

async function pollUntilStopped(client) {
  while (report.taskId && !stops(report.state)) {
    await sleep(200);
    see('poll', await client.getTask({ id: report.taskId }, { signal }));
  }
}

async function sendThenPoll(client, text, returnImmediately) {
  see('response', await client.sendMessage({ message: message(text), configuration: { returnImmediately } }, { signal }));
  await pollUntilStopped(client);
}

// pushes: the kit's receiver takes each push; push waits until one is terminal; push-cancel
// cancels once a push says WORKING, then waits until a push carries a terminal state other than
// CANCELED, or none has come for 3 s.
async function pushes(c, cancel) {
  let wake = () => {};
  const rx = await receiver({ listen: env.webhookListen, token: env.pushToken, report, onPush: (doc) => {
    const p = pushState(doc);
    report.event('push', p.kind, p.taskId, p.state, p.contextId);
    wake();
  } });
  const until = (ok, quietMs) => new Promise((resolve, reject) => {
    let timer;
    wake = () => {
      if (ok()) resolve();
      else if (quietMs) { clearTimeout(timer); timer = setTimeout(resolve, quietMs); }
    };
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    wake();
  });
  try {
    const pushConfig = { url: env.webhookUrl, token: env.pushToken };
    see('response', await c.sendMessage({ message: message(env.text), configuration: { returnImmediately: true, taskPushNotificationConfig: pushConfig } }, { signal }));
    for (const e of report.out.events) if (e.via === 'push' && e.taskId === report.taskId && e.state) report.believe('push', e.state); // pushes that beat the answer
    if (!cancel) { await until(() => terminal(report.state)); return; }
    await until(() => report.state === 'TASK_STATE_WORKING' || terminal(report.state));
    if (terminal(report.state)) return;
    report.cancelAcknowledged(see('response', await c.cancelTask({ id: report.taskId }, { signal })));
    await until(() => report.out.events.some((e) => e.via === 'push' && terminal(e.state) && e.state !== 'TASK_STATE_CANCELED'), 3000);
  } finally { rx.close(); }
}

// The key a card signature names: the key set at its jku (the application's part of the SDK's verifier).
async function publicKey(kid, jku) {
  const set = await (await fetch(jku, { signal })).json();
  const jwk = set.keys?.find((k) => k.kid === kid);
  if (!jwk) throw new Error(`no key ${kid} at ${jku}`);
  return createPublicKey({ key: jwk, format: 'jwk' });
}

const actions = {
  send: async (c) => sendThenPoll(c, env.text, false),
  poll: async (c) => sendThenPoll(c, env.text, true),
  stream: async (c) => consume(c.sendMessageStream({ message: message(env.text) }, { signal })),
  cancel: async (c) => {
    let asked = false;
    await consume(c.sendMessageStream({ message: message(env.text) }, { signal }), async () => {
      if (asked || report.state !== 'TASK_STATE_WORKING') return;
      asked = true;
      report.cancelAcknowledged(see('response', await c.cancelTask({ id: report.taskId }, { signal })));
    });
    if (report.taskId) see('poll', await c.getTask({ id: report.taskId }, { signal }));
  },
  'follow-up': async (c) => {
    await sendThenPoll(c, env.text, false);
    const first = { taskId: report.taskId, contextId: report.contextId };
    const r = await c.sendMessage({ message: message(env.followUpText, first) }, { signal });
    see('response', r);
    const id = r.id ?? r.taskId;
    if (id && id !== first.taskId) { // the agent answered with another task: track that one
      report.out.resubmittedTaskId = report.out.taskId = id;
      report.out.contextId = r.contextId ?? report.out.contextId;
      if (r.status?.state !== undefined) report.believe('response', taskStateToJSON(r.status.state));
    }
    await pollUntilStopped(c);
  },
  subscribe: async (c) => {
    see('response', await c.sendMessage({ message: message(env.text), configuration: { returnImmediately: true } }, { signal }));
    await consume(c.resubscribeTask({ id: report.taskId }, { signal }));
  },
  push: async (c) => pushes(c, false),
  'push-cancel': async (c) => pushes(c, true),
  resolve: async () => { await sleep(1000); await resolve(); }, // the SDK keeps no card cache
  // Two new tasks, sent and streamed, each left to the SDK's default push config; then the pushes.
  'push-default': async (c) => {
    const ended = new Set();
    let wake = () => {};
    const rx = await receiver({ listen: env.webhookListen, token: env.pushToken, report, onPush: (doc) => {
      const p = pushState(doc);
      report.event('push', p.kind, p.taskId, p.state, p.contextId);
      if (terminal(p.state)) ended.add(p.taskId);
      wake();
    } });
    try {
      const ids = [];
      const r = await c.sendMessage({ message: message(env.text), configuration: { returnImmediately: true } }, { signal });
      see('response', r);
      if (r.id) ids.push(r.id);
      let streamed = '';
      for await (const ev of c.sendMessageStream({ message: message(env.followUpText) }, { signal })) {
        see('stream', ev);
        streamed ||= ev.payload?.$case === 'task' ? ev.payload.value.id : ev.payload?.value?.taskId ?? '';
      }
      if (streamed) ids.push(streamed);
      await new Promise((resolve, reject) => {
        let timer = setTimeout(resolve, 3000);
        wake = () => {
          if (ids.every((id) => ended.has(id))) resolve();
          else { clearTimeout(timer); timer = setTimeout(resolve, 3000); }
        };
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        wake();
      });
    } finally { rx.close(); }
  },
  // Stream; fetch the extended card through the SDK with its signature verifier; stream again.
  'extended-card': async (c) => {
    await consume(c.sendMessageStream({ message: message(env.text) }, { signal }));
    try {
      await c.getAgentCard({ signal }, verifyAgentCardSignature(publicKey));
      report.event('card', 'card');
    } catch (e) { report.warn(`the extended card was refused: ${e.message}`); }
    await consume(c.sendMessageStream({ message: message(env.followUpText) }, { signal }));
  },
  list: async (c) => {
    await sendThenPoll(c, env.text, false);
    const st = report.out.events.filter((e) => e.taskId === report.taskId && e.state).at(-1)?.state;
    const r = await c.listTasks({ contextId: report.contextId, ...(st ? { status: TaskState[st] } : {}), pageSize: 10 }, { signal });
    for (const t of r.tasks ?? []) report.event('list', 'task', t.id, taskStateToJSON(t.status?.state));
  },
};

// The SDK's errors, mapped to the contract's classes (the kit's table form): an A2A error anywhere
// in the cause chain first (the SDK wraps an error sent inside an SSE event), then the rest.
const errors = [
  ['TaskNotFoundError', 'task-not-found'], ['UnsupportedOperationError', 'unsupported-operation'],
  ['PushNotificationNotSupportedError', 'unsupported-operation'], ['RequestMalformedError', 'invalid-params'],
  ['ContentTypeNotSupportedError', 'invalid-params'], ['TimeoutError', 'timeout'], ['AbortError', 'timeout'], ['SyntaxError', 'parse'],
  [/^(ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET|fetch failed|terminated)$/, 'transport'],
  [(c) => [401, 403].includes(c.statusCode) || /Status: 40[13]\b|: 40[13]\b/.test(c.message ?? ''), 'auth'],
  [/Failed to parse|Unexpected token|not valid JSON/, 'parse'],
  [(c) => c.name === 'JsonRpcTransportError' || /JSON-RPC|Content-Type|Invalid response|SSE|missing/.test(c.message ?? ''), 'protocol'],
];

if (!actions[env.action]) {
  console.error(`unknown action ${JSON.stringify(env.action)}`);
  process.exit(2);
}
try {
  await actions[env.action](await resolve());
} catch (e) {
  report.fail(e, errors);
  console.error(e);
}
report.print();
process.exit(0);
