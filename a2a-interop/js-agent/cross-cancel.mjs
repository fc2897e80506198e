#!/usr/bin/env node
// cross-cancel.mjs reproduces, without the harness, what the SDK does when a
// task running on one instance is canceled through another (../README.md,
// "A cancel through another instance"). It starts three instances of
// agent.js on one SQLite file (--store), a webhook receiver, and for each of
// N trials:
//
//   1. SendStreamingMessage to instance 0 with a push config inline and a
//      directive (delayMs D, one artifact chunk, completed): SUBMITTED, then
//      WORKING after D, the artifact after 2D, COMPLETED after 3D;
//   2. once the stream shows WORKING, CancelTask through instance 1;
//   3. watches instance 0's stream and the pushes until 4D after the cancel,
//      then GetTask through instance 2.
//
// It prints one line per trial and a summary: how many cancels were
// acknowledged CANCELED, after how many of them instance 0's stream or
// pushes still carried an artifact or a later state, and how many stored
// tasks are CANCELED with an artifact they did not have at the cancel.
//
//   node cross-cancel.mjs [--trials N] [--delay-ms D]
//
// Loopback only: the instances, the receiver and every request are on
// 127.0.0.1.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const args = Object.fromEntries(process.argv.slice(2).reduce((a, v, i, all) => (i % 2 === 0 ? [...a, [v.replace(/^--/, ""), all[i + 1]]] : a), []));
const TRIALS = Number(args.trials ?? 12);
const D = Number(args["delay-ms"] ?? 400);
const AGENT = fileURLToPath(new URL("./agent.js", import.meta.url));
const DIRECTIVE_URI = "https://a2a-conform.dev/extensions/directive/v1";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cross-cancel-"));
const store = path.join(dir, "store.db");

// ---- the webhook receiver -------------------------------------------------
const pushes = []; // {at, token, body}
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    let parsed;
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = body;
    }
    pushes.push({ at: Date.now(), token: req.headers["x-a2a-notification-token"], body: parsed });
    res.writeHead(200).end();
  });
});
await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
const hook = `http://127.0.0.1:${receiver.address().port}/hook`;

// ---- the instances -------------------------------------------------------
async function freePort() {
  const s = http.createServer();
  await new Promise((r) => s.listen(0, "127.0.0.1", r));
  const p = s.address().port;
  await new Promise((r) => s.close(r));
  return p;
}
const ports = [await freePort(), await freePort(), await freePort()];
const procs = ports.map((port, i) => {
  const p = spawn(process.execPath, [AGENT, "--port", String(port), "--store", store, "--name", `js-sdk-${i}`], { stdio: ["ignore", "pipe", "pipe"] });
  p.stdout.on("data", (d) => fs.appendFileSync(path.join(dir, "agent.log"), `[${i}] ${d}`));
  p.stderr.on("data", (d) => fs.appendFileSync(path.join(dir, "agent.log"), `[${i}] ${d}`));
  return p;
});
const cleanup = () => {
  for (const p of procs) p.kill("SIGKILL");
  receiver.close();
};
process.on("exit", cleanup);
for (const port of ports) {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`)).ok) break;
    } catch {}
    if (i > 300) throw new Error(`instance on ${port} never served; see ${dir}/agent.log`);
    await sleep(50);
  }
}

// ---- JSON-RPC ------------------------------------------------------------
const url = (i) => `http://127.0.0.1:${ports[i]}/a2a/jsonrpc`;
const headers = { "content-type": "application/json", "A2A-Version": "1.0", "A2A-Extensions": DIRECTIVE_URI };
async function call(i, method, params) {
  const res = await fetch(url(i), { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  return res.json();
}

// stream opens SendStreamingMessage on instance i; onEvent gets every
// StreamResponse with its arrival time; the promise ends with the stream.
async function stream(i, params, onEvent) {
  const res = await fetch(url(i), {
    method: "POST",
    headers: { ...headers, accept: "text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "SendStreamingMessage", params }),
  });
  const dec = new TextDecoder();
  let buf = "";
  for await (const chunk of res.body) {
    buf += dec.decode(chunk, { stream: true });
    let k;
    while ((k = buf.indexOf("\n\n")) >= 0) {
      const ev = buf.slice(0, k);
      buf = buf.slice(k + 2);
      const data = ev.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
      if (data) onEvent(JSON.parse(data), Date.now());
    }
  }
}

const kind = (r) => (r.task ? "task" : r.statusUpdate ? "status" : r.artifactUpdate ? "artifact" : r.message ? "message" : "?");
const stateOf = (r) => r.task?.status?.state ?? r.statusUpdate?.status?.state;

// ---- the trials ------------------------------------------------------------
const totals = { trials: 0, acked: 0, streamAfter: 0, streamCompleted: 0, pushAfter: 0, pushCompleted: 0, pushCanceled: 0, storedCanceledGained: 0, storedOther: 0 };
for (let n = 1; n <= TRIALS; n++) {
  const token = `trial-${n}-${Date.now()}`;
  const events = [];
  let taskId;
  let working;
  const sawWorking = new Promise((r) => (working = r));
  const params = {
    message: {
      messageId: `cross-cancel-${token}`,
      role: "ROLE_USER",
      extensions: [DIRECTIVE_URI],
      parts: [
        { text: "cross-instance cancel" },
        { data: { a2aConformDirective: { version: 1, outcome: "completed", delayMs: D, artifactChunks: 1 } }, mediaType: "application/json" },
      ],
    },
    configuration: { taskPushNotificationConfig: { url: hook, token } },
  };
  const done = stream(0, params, (r, at) => {
    const res = r.result ?? r;
    events.push({ at, kind: kind(res), state: stateOf(res) });
    taskId ??= res.task?.id ?? res.statusUpdate?.taskId;
    if (stateOf(res) === "TASK_STATE_WORKING") working();
  }).catch((e) => events.push({ at: Date.now(), kind: `stream error: ${e.message}` }));
  await Promise.race([sawWorking, sleep(10 * D + 5000)]);
  const cancelAt = Date.now();
  // Artifacts the stored task holds just before the cancel.
  const before = (await call(2, "GetTask", { id: taskId })).result?.artifacts?.length ?? 0;
  const cancel = await call(1, "CancelTask", { id: taskId });
  const acked = cancel.result?.status?.state === "TASK_STATE_CANCELED";
  await Promise.race([done, sleep(4 * D + 1000)]);
  await sleep(300); // pushes in flight
  const after = events.filter((e) => e.at > cancelAt);
  const mine = pushes.filter((p) => p.token === token);
  const pushAfter = mine.filter((p) => p.at > cancelAt);
  const pushKinds = pushAfter.map((p) => `${kind(p.body)}${stateOf(p.body) ? ":" + stateOf(p.body).replace("TASK_STATE_", "") : ""}`);
  const got = (await call(2, "GetTask", { id: taskId })).result;
  const state = got?.status?.state;
  const arts = got?.artifacts?.length ?? 0;
  totals.trials++;
  if (acked) totals.acked++;
  if (acked && after.some((e) => e.kind === "artifact" || (e.state && e.state !== "TASK_STATE_CANCELED"))) totals.streamAfter++;
  if (acked && after.some((e) => e.state === "TASK_STATE_COMPLETED")) totals.streamCompleted++;
  if (acked && pushAfter.some((p) => kind(p.body) === "artifact" || (stateOf(p.body) && stateOf(p.body) !== "TASK_STATE_CANCELED"))) totals.pushAfter++;
  if (acked && pushAfter.some((p) => stateOf(p.body) === "TASK_STATE_COMPLETED")) totals.pushCompleted++;
  if (mine.some((p) => stateOf(p.body) === "TASK_STATE_CANCELED")) totals.pushCanceled++;
  if (state === "TASK_STATE_CANCELED" && arts > before) totals.storedCanceledGained++;
  if (state !== "TASK_STATE_CANCELED") totals.storedOther++;
  console.log(
    `trial ${n}: task ${taskId}: cancel via 1 -> ${cancel.result?.status?.state ?? JSON.stringify(cancel.error)}; ` +
      `instance 0's stream after the cancel: [${after.map((e) => e.kind + (e.state ? ":" + e.state.replace("TASK_STATE_", "") : "")).join(", ")}]; ` +
      `pushes after the cancel: [${pushKinds.join(", ")}]; stored (GetTask via 2): ${state} with ${arts} artifact(s), ${before} before the cancel`,
  );
}
const t = totals;
console.log(
  `\n${t.trials} trials (delayMs ${D}, three instances on one SQLite file): ${t.acked} cancels acknowledged CANCELED; ` +
    `after the acknowledgement, instance 0's stream carried an artifact or a non-CANCELED state in ${t.streamAfter} (COMPLETED in ${t.streamCompleted}); ` +
    `the pushes did in ${t.pushAfter} (COMPLETED in ${t.pushCompleted}); a CANCELED push came in ${t.pushCanceled}; ` +
    `the stored task was CANCELED with an artifact gained after the cancel in ${t.storedCanceledGained}, not CANCELED in ${t.storedOther}`,
);
cleanup();
process.exit(0);
