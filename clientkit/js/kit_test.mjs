// Tests of the JS driver kit: node --test clientkit/js/kit_test.mjs (run by go test ./a2a-interop).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import http from 'node:http';
import { Report, receiver, handler, classify, pushState, contract } from './kit.mjs';

test('the state rule keeps CANCELED after the client\'s own acknowledged cancel', () => {
  const r = new Report('cancel');
  r.event('push', 'status', 'other', 'TASK_STATE_WORKING');
  r.event('stream', 'task', 't1', 'TASK_STATE_SUBMITTED', 'c1');
  r.cancelAcknowledged('TASK_STATE_CANCELED');
  r.event('response', 'task', 't1', 'TASK_STATE_CANCELED');
  r.event('stream', 'status', 't1', 'TASK_STATE_COMPLETED');
  assert.equal(r.taskId, 't1');
  assert.equal(r.contextId, 'c1');
  assert.equal(r.state, 'TASK_STATE_CANCELED');
  assert.equal(r.out.warnings.length, 1);
});

test('classify walks the cause chain through the table', () => {
  const table = [['TaskNotFoundError', 'task-not-found'], [/refused/, 'transport'], [(c) => c.statusCode === 401, 'auth']];
  const nf = Object.assign(new Error('no task'), { name: 'TaskNotFoundError' });
  assert.equal(classify(new Error('outer', { cause: nf }), table), 'task-not-found');
  assert.equal(classify(new Error('connection refused'), table), 'transport');
  assert.equal(classify(Object.assign(new Error('x'), { statusCode: 401 }), table), 'auth');
  assert.equal(classify(new Error('else'), table), 'other');
});

test('pushState reads a StreamResponse body', () => {
  assert.deepEqual(pushState({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } }),
    { kind: 'status', taskId: 't', contextId: 'c', state: 'TASK_STATE_COMPLETED' });
  assert.equal(pushState({}).kind, '');
});

test('the receiver refuses a push without the token and passes on one with it', async () => {
  const port = await new Promise((res) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => res(p)); }); });
  const r = new Report('push');
  const got = [];
  const rx = await receiver({ listen: `127.0.0.1:${port}`, token: 'tok', report: r, onPush: (d) => got.push(d) });
  try {
    const body = JSON.stringify({ statusUpdate: { taskId: 't', status: { state: 'TASK_STATE_WORKING' } } });
    const post = (headers) => fetch(`http://127.0.0.1:${port}/hook`, { method: 'POST', headers, body }).then((x) => x.status);
    assert.equal(await post({}), 401);
    assert.equal(await post({ 'X-A2A-Notification-Token': 'forged' }), 401);
    assert.equal(await post({ 'X-A2A-Notification-Token': 'tok' }), 200);
    assert.equal(await post({ Authorization: 'Bearer tok' }), 200);
    assert.equal(got.length, 2);
    assert.equal(r.supplied['push-receiver'], 'kit');
  } finally { rx.close(); }
});

test('after the acknowledged cancel no state but CANCELED is taken; a cancel that lost the race guards nothing', () => {
  const r = new Report('cancel');
  r.event('response', 'task', 't1', 'TASK_STATE_CANCELED', 'c1');
  r.cancelAcknowledged('TASK_STATE_CANCELED');
  r.event('push', 'status', 't1', 'TASK_STATE_WORKING');
  assert.equal(r.state, 'TASK_STATE_CANCELED');
  assert.equal(r.out.warnings.length, 1);
  const lost = new Report('cancel');
  lost.event('response', 'task', 't2', 'TASK_STATE_COMPLETED');
  lost.cancelAcknowledged('TASK_STATE_COMPLETED');
  lost.event('poll', 'task', 't2', 'TASK_STATE_COMPLETED');
  assert.equal(lost.state, 'TASK_STATE_COMPLETED');
  assert.equal(lost.out.warnings.length, 0);
});

test('record leaves the state to the driver, setState sets it past the rule', () => {
  const r = new Report('cancel');
  assert.equal(r.record('stream', 'task', 't1', 'TASK_STATE_WORKING', 'c1'), true);
  assert.equal(r.taskId, 't1');
  assert.equal(r.state, '');
  r.cancelAcknowledged('TASK_STATE_CANCELED');
  r.setState('TASK_STATE_COMPLETED');
  assert.equal(r.state, 'TASK_STATE_COMPLETED');
  assert.equal(r.out.warnings.length, 0);
});

test('a re-submitted task becomes the client\'s task', () => {
  const r = new Report('follow-up');
  r.event('response', 'task', 'old', 'TASK_STATE_INPUT_REQUIRED', 'c1');
  r.resubmitted('new', 'c2');
  r.event('poll', 'task', 'old', 'TASK_STATE_FAILED');
  r.event('poll', 'task', 'new', 'TASK_STATE_COMPLETED');
  assert.deepEqual([r.taskId, r.contextId, r.state, r.out.resubmittedTaskId], ['new', 'c2', 'TASK_STATE_COMPLETED', 'new']);
});

test('the handler mounts in the driver\'s own server, which sees each refusal', async () => {
  const r = new Report('push');
  const got = [];
  const refused = [];
  const kit = handler({ token: 'tok', report: r, onPush: (d) => got.push(pushState(d)) });
  const server = http.createServer((req, res) => {
    res.on('finish', () => { if (res.statusCode === 401) refused.push(req.url); });
    kit(req, res);
  });
  await new Promise((res) => server.listen(0, '127.0.0.1', res));
  try {
    const url = `http://127.0.0.1:${server.address().port}/hook`;
    const body = JSON.stringify({ task: { id: 't1', status: { state: 'TASK_STATE_WORKING' } } });
    const post = (token) => fetch(url, { method: 'POST', headers: { 'X-A2A-Notification-Token': token }, body }).then((x) => x.status);
    assert.equal(await post('forged'), 401);
    assert.equal(await post('tok'), 200);
    assert.deepEqual(refused, ['/hook']);
    assert.equal(got.length, 1);
    assert.equal(got[0].state, 'TASK_STATE_WORKING');
    assert.equal(r.supplied['push-receiver'], 'kit');
  } finally { server.close(); server.closeAllConnections(); }
});

test('contract reads the case for the log', () => {
  assert.equal(contract({ A2A_CONFORM_CASE: 'c1', A2A_CONFORM_TIMEOUT: '4' }).caseName, 'c1');
});
