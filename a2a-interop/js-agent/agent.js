#!/usr/bin/env node
// A small A2A v1.0 agent built on the official JS SDK (@a2a-js/sdk), with the
// a2a-conform directive extension (docs/directive-extension.md). It is the
// third-party agent a2a-conform's interop test runs every suite against: the
// SDK does the protocol (both bindings, card, stores, streams, push); this
// file scripts tasks, as a vendor's test build would (../README.md).
//
//   node agent.js --port 8080 [--host 127.0.0.1] [--store FILE] [--name NAME]
//                 [--card-version V] [--drain-ms N] [--min-step-ms N]
//
// Without --store the tasks and push configs live in the SDK's in-memory
// stores, the SDK as it ships. --store FILE puts them in the SDK's own
// database stores (@a2a-js/sdk/server/database: DatabaseTaskStore and
// DatabasePushNotificationStore) on the SQLite file FILE, through kysely and
// a better-sqlite3-compatible binding (libsql, installed under
// better-sqlite3's name so that the SDK's a2a-db tool loads it too: its
// binaries come from the npm registry, where better-sqlite3's must be built
// from source without GitHub), as a vendor deploys several instances: every instance
// started with the same FILE shares them. The tables are made by the SDK's
// own migration tool (a2a-db upgrade), run by the first instance that finds
// them missing. Nothing else is shared: the SDK has no event bus across
// processes, and this agent adds none, so a cancel or a subscription made
// through another instance than the one running the task gets the SDK's own
// behaviour. --card-version sets the card's version, so that a next build
// (a2a-conform --agent-cmd-next) serves another card.
// SIGTERM drains: no new connections, running scripts and push deliveries
// get --drain-ms to finish (default 4000, inside the 5 s the process driver
// waits before SIGKILL); a script still running then ends FAILED.
import express from "express";
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { RequestMalformedError, TaskNotFoundError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import { execFile } from "node:child_process";
import fs from "node:fs";
import { fileURLToPath } from "node:url";

const DIRECTIVE_URI = "https://a2a-conform.dev/extensions/directive/v1";
const DIRECTIVE_KEY = "a2aConformDirective";
const DIRECTIVE_VERSIONS = [1];
const MAX_DELAY_MS = 600000;
const MAX_CHUNKS = 100;
const MAX_TEXT_BYTES = 64 * 1024;

const State = { SUBMITTED: 1, WORKING: 2, COMPLETED: 3, FAILED: 4, CANCELED: 5, INPUT_REQUIRED: 6, REJECTED: 7, AUTH_REQUIRED: 8 };
const TERMINAL = new Set([State.COMPLETED, State.FAILED, State.CANCELED, State.REJECTED]);
const OUTCOMES = {
  completed: State.COMPLETED,
  failed: State.FAILED,
  rejected: State.REJECTED,
  "input-required": State.INPUT_REQUIRED,
  "auth-required": State.AUTH_REQUIRED,
  message: null,
};
const ROLE_AGENT = 2;

function parseArgs(argv) {
  const opts = { host: "127.0.0.1", port: 0, store: "", name: "a2a-conform JS SDK agent", cardVersion: "1.0.0", drainMs: 4000, minStepMs: 0 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case "--port": opts.port = Number(value); break;
      case "--host": opts.host = value; break;
      case "--store": opts.store = value; break;
      case "--name": opts.name = value; break;
      case "--card-version": opts.cardVersion = value; break;
      case "--drain-ms": opts.drainMs = Number(value); break;
      case "--min-step-ms": opts.minStepMs = Number(value); break;
      default: throw new Error(`unknown flag ${flag} (usage: agent.js --port N [--host H] [--store FILE] [--name NAME] [--card-version V] [--drain-ms N] [--min-step-ms N])`);
    }
  }
  if (!Number.isInteger(opts.port) || opts.port <= 0 || opts.port > 65535) throw new Error("--port N is required");
  if (!Number.isInteger(opts.drainMs) || opts.drainMs < 0) throw new Error("--drain-ms wants a whole number of milliseconds");
  if (!Number.isInteger(opts.minStepMs) || opts.minStepMs < 0) throw new Error("--min-step-ms wants a whole number of milliseconds");
  return opts;
}

// ---- the directive -------------------------------------------------------

// findDirective returns {directive} (undefined when the message has none) or
// throws RequestMalformedError (InvalidParams, -32602 / HTTP 400) for one the
// extension says to refuse.
function findDirective(message) {
  let found;
  for (const part of message?.parts ?? []) {
    const c = part.content;
    if (c?.$case !== "data" || !c.value || typeof c.value !== "object" || Array.isArray(c.value)) continue;
    if (!Object.hasOwn(c.value, DIRECTIVE_KEY)) continue;
    if (found) throw new RequestMalformedError("more than one a2a-conform directive part in the message");
    found = validate(c.value[DIRECTIVE_KEY]);
  }
  return found;
}

function validate(d) {
  const bad = (why) => new RequestMalformedError(`invalid a2a-conform directive: ${why}`);
  if (!d || typeof d !== "object" || Array.isArray(d)) throw bad("not an object");
  if (!Number.isInteger(d.version) || !DIRECTIVE_VERSIONS.includes(d.version)) {
    throw new RequestMalformedError(
      `unsupported a2a-conform directive version ${JSON.stringify(d.version)} (this agent implements ${JSON.stringify(DIRECTIVE_VERSIONS)})`,
    );
  }
  const outcome = d.outcome ?? "completed";
  if (typeof outcome !== "string" || !Object.hasOwn(OUTCOMES, outcome)) throw bad(`unknown outcome ${JSON.stringify(d.outcome)}`);
  const delayMs = d.delayMs ?? 0;
  if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > MAX_DELAY_MS) throw bad(`delayMs ${JSON.stringify(d.delayMs)} out of range 0..${MAX_DELAY_MS}`);
  const chunks = d.artifactChunks ?? (outcome === "completed" ? 1 : 0);
  if (!Number.isInteger(chunks) || chunks < 0 || chunks > MAX_CHUNKS) throw bad(`artifactChunks ${JSON.stringify(d.artifactChunks)} out of range 0..${MAX_CHUNKS}`);
  if (d.text !== undefined && (typeof d.text !== "string" || Buffer.byteLength(d.text) > MAX_TEXT_BYTES)) throw bad("text must be a string of at most 64 KiB");
  return { outcome, delayMs, chunks, text: d.text };
}

const DEFAULT_DIRECTIVE = { outcome: "completed", delayMs: 0, chunks: 1, text: undefined };

function inputText(message) {
  return (message?.parts ?? []).filter((p) => p.content?.$case === "text").map((p) => p.content.value).join("\n");
}

// chunkText is the i-th (1-based) of n nearly equal pieces of text, split on
// code points, as internal/directive.ChunkText does.
function chunkText(text, i, n) {
  const cps = Array.from(text);
  return cps.slice(Math.floor((cps.length * (i - 1)) / n), Math.floor((cps.length * i) / n)).join("");
}

function textPart(text) {
  return { content: { $case: "text", value: text }, mediaType: "text/plain", filename: "", metadata: undefined };
}

function agentMessage(text, taskId, contextId) {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId,
    role: ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

// ---- the executor ------------------------------------------------------

// minStepMs (--min-step-ms) makes every step of a script take at least that
// long, directive or not: the agent made slow, as an LLM-backed one is (a
// default task, three steps, then takes three times it).
let minStepMs = 0;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const step = (ms) => sleep(Math.max(ms, minStepMs));

class DirectiveExecutor {
  constructor(taskStore) {
    this.taskStore = taskStore;
    // taskId → {stopped, last, bus, contextId}: the script running on this
    // instance.
    this.runs = new Map();
    // How many executions (scripts and message replies) are in progress: a
    // drain waits for them.
    this.active = 0;
  }

  async execute(ctx, bus) {
    this.active++;
    try {
      await this.script(ctx, bus);
    } finally {
      this.active--;
    }
  }

  async script(ctx, bus) {
    const msg = ctx.userMessage;
    const d = findDirective(msg) ?? DEFAULT_DIRECTIVE;
    const text = d.text ?? inputText(msg);
    const { taskId, contextId } = ctx;

    if (d.outcome === "message") {
      await step(d.delayMs);
      bus.publish(AgentEvent.message(agentMessage(text, "", contextId)));
      return;
    }

    const run = { stopped: false, last: undefined, bus, contextId };
    this.runs.set(taskId, run);
    const status = (state, message) => ({ state, message, timestamp: new Date().toISOString() });
    const publishStatus = (state, message) => {
      run.last = { taskId, contextId, status: status(state, message), metadata: undefined };
      bus.publish(AgentEvent.statusUpdate(run.last));
    };
    // Only a cancel made on this instance stops the script (cancelTask
    // below, called by the SDK with this instance's event bus). A cancel made
    // through another instance finds no bus there: the SDK stores CANCELED
    // in the shared store and tells no one, and this script runs on. That is
    // the SDK's own behaviour on several instances, kept on purpose: the
    // interop baseline is about the SDK as vendors deploy it (../README.md,
    // "A cancel through another instance").
    const stopped = () => run.stopped;
    try {
      if (ctx.task) {
        // A follow-up to an interrupted task: the SDK wants a task event
        // first; the task moves to WORKING at once, then this message's
        // directive from its artifact chunks on.
        bus.publish(AgentEvent.task({ ...ctx.task, status: status(ctx.task.status?.state ?? State.INPUT_REQUIRED, ctx.task.status?.message) }));
        publishStatus(State.WORKING);
      } else {
        bus.publish(AgentEvent.task({
          id: taskId,
          contextId,
          status: status(State.SUBMITTED),
          artifacts: [],
          history: [msg],
          metadata: undefined,
        }));
        await step(d.delayMs);
        if (stopped()) return;
        publishStatus(State.WORKING);
      }
      const artifactId = crypto.randomUUID();
      for (let i = 1; i <= d.chunks; i++) {
        await step(d.delayMs);
        if (stopped()) return;
        bus.publish(AgentEvent.artifactUpdate({
          taskId,
          contextId,
          artifact: { artifactId, name: "result", description: "", parts: [textPart(chunkText(text, i, d.chunks))], metadata: undefined, extensions: [] },
          append: i > 1,
          lastChunk: i === d.chunks,
          metadata: undefined,
        }));
      }
      await step(d.delayMs);
      if (stopped()) return;
      const final = OUTCOMES[d.outcome];
      const sentence = {
        [State.FAILED]: "the directive asked this task to fail",
        [State.REJECTED]: "the directive asked this task to be rejected",
        [State.INPUT_REQUIRED]: "the directive asks for input: send any message to continue",
        [State.AUTH_REQUIRED]: "the directive asks for authorization: send any message to continue",
      }[final];
      publishStatus(final, sentence ? agentMessage(d.text ?? sentence, taskId, contextId) : undefined);
    } finally {
      this.runs.delete(taskId);
    }
  }

  // cancelTask stops the script and publishes CANCELED. The check and the
  // publication happen in one turn of the event loop, so no script step can
  // slip in between; the SDK's ResultManager then ignores a status update
  // that would move the stored terminal task to another state.
  async cancelTask(taskId, bus) {
    const run = this.runs.get(taskId);
    if (run) run.stopped = true;
    if (run?.last && TERMINAL.has(run.last.status.state)) {
      // The script ended first: say so again, so the SDK's cancel path sees a
      // terminal event and answers TaskNotCancelable.
      bus.publish(AgentEvent.statusUpdate(run.last));
      return;
    }
    const contextId = run?.last?.contextId ?? (await this.findContext(taskId));
    bus.publish(AgentEvent.statusUpdate({
      taskId,
      contextId,
      status: { state: State.CANCELED, message: agentMessage("canceled at the client's request", taskId, contextId), timestamp: new Date().toISOString() },
      metadata: undefined,
    }));
  }

  // failRunning ends every script still running on this instance FAILED:
  // the instance is going away and nothing else would finish them.
  failRunning(why) {
    for (const [taskId, run] of this.runs) {
      if (run.stopped) continue;
      run.stopped = true;
      run.last = {
        taskId,
        contextId: run.contextId,
        status: { state: State.FAILED, message: agentMessage(why, taskId, run.contextId), timestamp: new Date().toISOString() },
        metadata: undefined,
      };
      run.bus.publish(AgentEvent.statusUpdate(run.last));
    }
  }

  async findContext(taskId) {
    // The cancel path has no call context; a task of the unauthenticated
    // default scope is the only kind this agent serves.
    const t = await this.taskStore.load(taskId, { user: undefined, tenant: "" });
    return t?.contextId ?? "";
  }
}

// The directive is checked before the SDK creates anything, so an invalid one
// is an InvalidParams error with no task (docs/directive-extension.md
// "Errors"); a follow-up's task is checked first, as the SDK would.
class DirectiveRequestHandler extends DefaultRequestHandler {
  constructor(card, store, executor, ...rest) {
    super(card, store, executor, ...rest);
    this.store = store;
  }

  async precheck(params, context) {
    const taskId = params?.message?.taskId;
    if (taskId) {
      const t = await this.store.load(taskId, context);
      if (!t) throw new TaskNotFoundError(`Task not found: ${taskId}`);
      if (TERMINAL.has(t.status?.state)) throw new UnsupportedOperationError(`Task ${taskId} is in a terminal state and cannot be modified.`);
    }
    findDirective(params?.message);
  }

  async sendMessage(params, context) {
    await this.precheck(params, context);
    return super.sendMessage(params, context);
  }

  async *sendMessageStream(params, context) {
    await this.precheck(params, context);
    yield* super.sendMessageStream(params, context);
  }
}

// TrackingSender is the SDK's push sender, counting deliveries in flight so
// that a drain can wait for them.
class TrackingSender {
  constructor(inner) {
    this.inner = inner;
    this.inflight = 0;
  }

  async send(...args) {
    this.inflight++;
    try {
      return await this.inner.send(...args);
    } finally {
      this.inflight--;
    }
  }
}

// ---- the server ----------------------------------------------------------

// databaseStores opens the SQLite file with the SDK's database stores, as the
// SDK's README describes: the caller builds the Kysely instance (here on
// the better-sqlite3 API), the stores name their tables, and the tables are made by
// the SDK's migration tool beforehand. The driver packages are loaded only
// here, so an instance without --store never needs them.
async function databaseStores(file) {
  await migrate(file);
  const [{ DatabasePushNotificationStore, DatabaseTaskStore }, { Kysely, SqliteDialect }, { default: Database }] = await Promise.all([
    import("@a2a-js/sdk/server/database"),
    import("kysely"),
    import("better-sqlite3"),
  ]);
  // Several processes write the one file: WAL lets readers and a writer
  // overlap, and a writer that finds the file locked waits up to 5 s
  // (the binding's busy timeout, libsql's as better-sqlite3's) instead of failing at once. synchronous
  // NORMAL is SQLite's advice for WAL: a commit survives the process dying,
  // and only a power loss may undo the last ones; FULL's fsync per commit
  // cost 1.8 ms a save here, against 0.4 ms. These are the operator's
  // settings of a SQLite deployment; the stores take the connection as it is.
  const sqlite = new Database(file, { timeout: 5000 });
  await walMode(sqlite);
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
  return { taskStore: new DatabaseTaskStore(db), pushStore: new DatabasePushNotificationStore(db) };
}

// walMode switches the file to WAL. The mode is the file's, so only the
// first instance changes it; but while another instance opens or switches
// the file, SQLite can answer SQLITE_BUSY at once, without the busy timeout
// (three instances starting together met it: "database is locked"), so the
// switch is retried for up to 10 s.
async function walMode(sqlite) {
  for (let i = 0; ; i++) {
    try {
      if (sqlite.prepare("PRAGMA journal_mode").get().journal_mode === "wal") return;
      sqlite.pragma("journal_mode = WAL");
      return;
    } catch (e) {
      if (i >= 100 || !/SQLITE_BUSY|database is locked/.test(`${e.code} ${e.message}`)) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// The SDK's schema tool, a2a-db (its package's bin), run with this node.
const A2A_DB = fileURLToPath(new URL("./node_modules/@a2a-js/sdk/dist/cli/a2a_db.js", import.meta.url));
// How long an instance waits for another one's migration, and after how long
// a lock file left behind by a crashed instance counts as stale.
const MIGRATE_WAIT_MS = 30000;
const MIGRATE_STALE_MS = 30000;

// migrate makes the stores' tables with `a2a-db upgrade` unless they are
// there. The instances of a deployment start together on one file, and two
// upgrades at once would both try to create the tables (the migrator's lock
// does nothing on SQLite), so the upgrade runs under a lock file beside the
// database (O_EXCL create); whoever gets it second finds the tables made.
async function migrate(file) {
  const lock = `${file}.migrate.lock`;
  const deadline = Date.now() + MIGRATE_WAIT_MS;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lock, "wx"));
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      const st = fs.statSync(lock, { throwIfNoEntry: false });
      if (st && Date.now() - st.mtimeMs > MIGRATE_STALE_MS) fs.rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(`${lock}: another instance's migration held it for more than ${MIGRATE_WAIT_MS} ms`);
      else await sleep(20);
    }
  }
  try {
    if (await tablesExist(file)) return;
    await new Promise((resolve, reject) => {
      execFile(process.execPath, [A2A_DB, "upgrade", "--url", `sqlite:${file}`], (err, stdout, stderr) => {
        if (err) reject(new Error(`a2a-db upgrade --url sqlite:${file}: ${err.message}\n${stdout}${stderr}`));
        else resolve();
      });
    });
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

async function tablesExist(file) {
  if (!fs.existsSync(file)) return false;
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(file, { readonly: true, timeout: 5000 });
  try {
    const n = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('tasks', 'push_notification_configs')").get().n;
    return n === 2;
  } finally {
    db.close();
  }
}


async function main() {
  const opts = parseArgs(process.argv.slice(2));
  minStepMs = opts.minStepMs;
  const base = `http://${opts.host}:${opts.port}`;
  const card = {
    name: opts.name,
    description: "A2A v1.0 agent on @a2a-js/sdk with the a2a-conform directive extension (a2a-conform interop test)",
    supportedInterfaces: [
      { url: `${base}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
      { url: `${base}/a2a/rest`, protocolBinding: "HTTP+JSON", tenant: "", protocolVersion: "1.0" },
    ],
    provider: { organization: "a2a-conform", url: "https://a2a-conform.dev" },
    version: opts.cardVersion,
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extensions: [{
        uri: DIRECTIVE_URI,
        description: "a2a-conform directive: scripted task behaviour for conformance testing",
        required: false,
        params: { versions: DIRECTIVE_VERSIONS },
      }],
      extendedAgentCard: false,
    },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: [{
      id: "directive",
      name: "scripted task",
      description: "Runs the task a2a-conform's directive describes; echoes text otherwise",
      tags: ["test"],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    }],
    signatures: [],
  };

  const { taskStore, pushStore } = opts.store ? await databaseStores(opts.store) : { taskStore: new InMemoryTaskStore(), pushStore: new InMemoryPushNotificationStore() };
  const sender = new TrackingSender(new DefaultPushNotificationSender(pushStore));
  const executor = new DirectiveExecutor(taskStore);
  const handler = new DirectiveRequestHandler(
    card, taskStore, executor, undefined, pushStore, sender,
    undefined, undefined,
    // The SDK's own check of part media types against defaultInputModes
    // (§3.1.1 ContentTypeNotSupportedError); off by default in the SDK.
    { validateInputModes: true },
  );

  const app = express();
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  app.use("/a2a/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));

  const server = app.listen(opts.port, opts.host, () => {
    console.log(`${opts.name}: serving A2A v1.0 on ${base} (store: ${opts.store ? `SQLite ${opts.store}` : "memory"})`);
  });
  server.on("error", (err) => {
    console.error(`listen ${base}: ${err.message}`);
    process.exit(1);
  });
  // The drain: no new connections; the scripts running here and the push
  // deliveries in flight get opts.drainMs; scripts still running then end
  // FAILED (and get a moment to be saved and pushed); open streams are cut.
  let draining = false;
  const stop = async () => {
    if (draining) return;
    draining = true;
    server.close();
    const busy = () => executor.active > 0 || sender.inflight > 0;
    const deadline = Date.now() + opts.drainMs;
    while (busy() && Date.now() < deadline) await sleep(10);
    if (executor.runs.size > 0) {
      console.log(`${opts.name}: ${executor.runs.size} task(s) still running after ${opts.drainMs} ms of drain; ending them FAILED`);
      executor.failRunning("the agent instance shut down before the task finished");
      const last = Date.now() + 500;
      while (sender.inflight > 0 && Date.now() < last) await sleep(10);
    }
    server.closeAllConnections(); // open streams would hold close() up
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((err) => {
  console.error(err?.stack ?? String(err));
  process.exit(2);
});
