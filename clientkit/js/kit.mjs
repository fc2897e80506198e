// a2a-conform driver kit (JS): the pieces of a client driver that A2A SDKs leave to the
// application, so that a driver is its SDK's calls alone (docs/client-driver.md, "The driver
// kit"). No dependencies beyond Node's own modules; import it by path:
//
//   import { contract, Report, receiver, classify } from '<repo>/clientkit/js/kit.mjs';
//
// - contract(): the A2A_CONFORM_* variables, and an AbortSignal that fires in time to print.
// - Report: the one JSON result line, with the state rule every driver needs (the state the
//   client believes, and no state but CANCELED taken after its own acknowledged cancel).
// - receiver(): the push receiver, with the contract's token check (401 without it); handler()
//   is the same receiver for a driver that mounts it in a server of its own.
// - classify(): maps what the SDK threw to the contract's error classes through a table the driver
//   fills in.
// A result printed by the kit says so ("supplied"): the verdicts that rest only on these pieces
// judge the kit, not your client, and are reported not-applicable.
import http from 'node:http';

const TERMINAL = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'];
const INTERRUPTED = ['TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED'];
export const terminal = (s) => TERMINAL.includes(s);
export const stops = (s) => terminal(s) || INTERRUPTED.includes(s);

// contract reads the driver's environment (caseName is for the driver's log only: a driver must
// not branch on it). signal aborts a quarter of the budget (at least 1.5 s) before the harness's
// deadline, so that the result line is printed in time: the harness counts from its launch of the
// driver, and a loaded machine can take seconds to start one.
export function contract(env = process.env) {
  const timeoutMs = (Number(env.A2A_CONFORM_TIMEOUT) || 20) * 1000;
  return {
    action: env.A2A_CONFORM_ACTION ?? '',
    cardUrl: env.A2A_CONFORM_CARD_URL ?? '',
    text: env.A2A_CONFORM_TEXT ?? '',
    followUpText: env.A2A_CONFORM_FOLLOWUP_TEXT ?? '',
    webhookListen: env.A2A_CONFORM_WEBHOOK_LISTEN ?? '',
    webhookUrl: env.A2A_CONFORM_WEBHOOK_URL ?? '',
    pushToken: env.A2A_CONFORM_PUSH_TOKEN ?? '',
    tenant: env.A2A_CONFORM_TENANT ?? '',
    caseName: env.A2A_CONFORM_CASE ?? '',
    signal: AbortSignal.timeout(Math.max(1000, timeoutMs - Math.max(1500, timeoutMs / 4))),
  };
}

// Report is the result line. event() records what the client saw; the first task seen
// through the client's own calls (not a push) is its task; believe() applies the state rule.
export class Report {
  constructor(action) {
    this.out = { action, taskId: '', contextId: '', state: '', error: null, events: [], interface: null, warnings: [] };
    this.canceled = false;
    this.supplied = { 'client-state': 'kit' };
  }

  // event records one thing the client saw: via response|stream|poll|push|list|card, kind
  // task|status|artifact|message|card, the task it names and the state it carries ('' if none);
  // a state of the client's task is taken through the state rule (believe).
  event(via, kind, taskId = '', state = '', contextId = '') {
    if (this.record(via, kind, taskId, state, contextId) && state) this.believe(via, state);
  }

  // record is event without the state rule, for a client that keeps its task's state itself
  // (setState; say so in supplied). It returns whether the event names the client's task.
  record(via, kind, taskId = '', state = '', contextId = '') {
    this.out.events.push({ via, kind, taskId, state, final: stops(state) });
    if (taskId && !this.out.taskId && via !== 'push' && via !== 'list') this.out.taskId = taskId;
    if (!taskId || taskId !== this.out.taskId) return false;
    if (contextId) this.out.contextId = contextId;
    return true;
  }

  // believe takes a state of the client's task, unless its own cancel was acknowledged and the
  // state is not CANCELED: a task canceled neither runs nor completes afterwards (scenario 3).
  believe(via, state) {
    if (this.canceled && state !== 'TASK_STATE_CANCELED') {
      this.warn(`${via} said ${state} after the client's own cancel was acknowledged: not taken`);
      return false;
    }
    this.out.state = state;
    return true;
  }

  // setState records the state the client believes as its own code or SDK decided it, without
  // the state rule ('' for none, e.g. a task it found lost).
  setState(state) { this.out.state = state; }

  // cancelAcknowledged is called with the state the agent answered the client's CancelTask with:
  // CANCELED acknowledges the cancel (the state rule holds from then on), any other answer (the
  // task ended before the cancel reached it) does not.
  cancelAcknowledged(state) {
    if (state === 'TASK_STATE_CANCELED') this.canceled = true;
  }

  // resubmitted records that the client re-submitted its lost task as the new task taskId: the
  // client's task from now on (resubmittedTaskId), with no state believed of it yet.
  resubmitted(taskId, contextId = '') {
    this.out.taskId = this.out.resubmittedTaskId = taskId;
    if (contextId) this.out.contextId = contextId;
    this.out.state = '';
    this.canceled = false;
  }

  get state() { return this.out.state; }
  get taskId() { return this.out.taskId; }
  get contextId() { return this.out.contextId; }

  warn(msg) { this.out.warnings.push(msg); }
  usedInterface(url, protocolBinding) { this.out.interface = { url, protocolBinding }; }

  // fail records what the client raised, classified through the driver's table.
  fail(err, table) {
    const chain = [];
    for (let c = err; c; c = c.cause) chain.push(`${c.name ?? 'Error'}: ${c.message ?? String(c)}`);
    this.out.error = { class: classify(err, table), message: chain.join(' <- ') };
  }

  // print writes the one JSON line the harness reads.
  print() {
    console.log(JSON.stringify({ ...this.out, supplied: this.supplied }));
  }
}

// receiver serves the push receiver (handler) on listen (host:port). Resolves once listening;
// close() stops it.
export async function receiver({ listen, token, onPush, report }) {
  const server = http.createServer(handler({ token, onPush, report }));
  const [host, port] = listen.split(/:(?=\d+$)/);
  await new Promise((r) => server.listen(Number(port), host.replace(/^\[|\]$/g, ''), r));
  return { close: () => { server.close(); server.closeAllConnections(); } };
}

// handler is the push receiver as a request listener, for a driver that serves it in a server of
// its own: a POST whose token header (X-A2A-Notification-Token, A2A-Notification-Token, or
// Authorization: Bearer) is not token is answered 401 and not passed on; any other readable one
// is passed to onPush(the parsed JSON body), then answered 200. It marks the report's push
// receiver as the kit's.
export function handler({ token, onPush, report }) {
  if (report) report.supplied['push-receiver'] = 'kit';
  return (req, res) => {
    const got = req.headers['x-a2a-notification-token'] ?? req.headers['a2a-notification-token']
      ?? (req.headers.authorization ?? '').replace(/^Bearer /i, '');
    if (req.method !== 'POST' || got !== token) { res.writeHead(req.method !== 'POST' ? 405 : 401).end(); return; }
    let body = '';
    let size = 0;
    req.on('data', (d) => { size += d.length; if (size <= 1 << 20) body += d; }).on('end', () => {
      if (size > 1 << 20) { res.writeHead(413).end(); return; }
      let doc;
      try { doc = JSON.parse(body); } catch (e) { report?.warn(`unreadable push: ${e.message}`); res.writeHead(400).end(); return; }
      onPush(doc); // taken before it is acknowledged
      res.writeHead(200).end();
    });
  };
}

// pushState reads the task, state and kind out of a push body (a StreamResponse in its JSON
// form: task, statusUpdate, artifactUpdate or message).
export function pushState(doc) {
  if (doc?.task) return { kind: 'task', taskId: doc.task.id ?? '', contextId: doc.task.contextId ?? '', state: doc.task.status?.state ?? '' };
  if (doc?.statusUpdate) return { kind: 'status', taskId: doc.statusUpdate.taskId ?? '', contextId: doc.statusUpdate.contextId ?? '', state: doc.statusUpdate.status?.state ?? '' };
  if (doc?.artifactUpdate) return { kind: 'artifact', taskId: doc.artifactUpdate.taskId ?? '', contextId: doc.artifactUpdate.contextId ?? '', state: '' };
  if (doc?.message) return { kind: 'message', taskId: doc.message.taskId ?? '', contextId: doc.message.contextId ?? '', state: '' };
  return { kind: '', taskId: '', contextId: '', state: '' };
}

// classify maps an error to a contract class through table: a list of [test, class], where test
// is an error name (matched anywhere in the cause chain), a RegExp (matched against each
// message and code), or a function of one error of the chain. The first match wins; 'other'
// when none does.
export function classify(err, table = []) {
  const chain = [];
  for (let c = err; c; c = c.cause) chain.push(c);
  for (const [test, cls] of table) {
    for (const c of chain) {
      if (typeof test === 'string' ? c.name === test
        : test instanceof RegExp ? test.test(c.message ?? '') || test.test(String(c.code ?? ''))
          : test(c)) return cls;
    }
  }
  return 'other';
}
