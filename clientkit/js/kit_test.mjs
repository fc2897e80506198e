// Tests of the JS driver kit: node --test clientkit/js/kit_test.mjs (run by go test ./interop).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Report, receiver, classify, pushState } from './kit.mjs';

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
