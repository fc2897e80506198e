package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/runner"
	"github.com/a2a-conform/a2a-conform/internal/topology"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

const fakeHelp = `Usage: a2a-conform fake [flags]

Serves the reference agent (a correct A2A v1.0 agent on JSON-RPC and HTTP+JSON) until
interrupted. --fault switches on registered faults; --list-faults lists them with the
specs that must catch each one. --hostile NAME serves instead an agent that misbehaves on
every call (--list-hostile lists the behaviours; "all" rotates them per request).

Flags:
`

func fakeCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("fake", stderr, fakeHelp)
	listen := fs.String("listen", "127.0.0.1:8080", "`ADDR` to listen on")
	grpcListen := fs.String("grpc-listen", "", "`ADDR` of the gRPC binding's own listener (default a random loopback port, plaintext h2c; \"off\" serves no gRPC)")
	store := fs.String("store", "", "shared store, sqlite:`PATH` (default: in memory, one instance)")
	name := fs.String("name", "fake-0", "instance `NAME`, sent in the A2A-Conform-Instance header")
	listFaults := fs.Bool("list-faults", false, "list the registered faults and exit")
	delay := fs.Duration("delay", 0, "make every task step (and a message reply) take at least this long: a slow agent, to try the harness's patience")
	prompts := fs.Bool("prompt-map", false, "also obey the fixed prompt phrases of examples/reference-prompt-map.yaml")
	noDirective := fs.Bool("no-directive", false, "withdraw the directive extension (drive it by --prompt-map instead)")
	hostile := fs.String("hostile", "", "serve the hostile agent: one behaviour `NAME`, or all (see --list-hostile)")
	listHostile := fs.Bool("list-hostile", false, "list the hostile agent's behaviours and exit")
	generation := fs.Int("generation", 1, "card `GENERATION` to start at (card version 1.<N>.0); the process driver passes {generation}")
	warmUp := fs.Duration("warm-up", 0, "answer 503 with Retry-After for this long after start-up, as an instance loading its state would")
	answerLatency := fs.Duration("answer-latency", 0, "answer a non-blocking SendMessage this long after creating its task, as a loaded agent does: a short task may have ended by the client's first look")
	drainGrace := fs.Duration("drain-grace", 0, "after SIGTERM, keep answering for this long, draining (refusing new tasks, answering the rest), before shutting down, as a pod does during its termination grace period")
	noStreaming := fs.Bool("no-streaming", false, "withdraw streaming: the card says false and streaming calls are refused (UnsupportedOperationError), as a build that dropped it")
	noPush := fs.Bool("no-push", false, "withdraw push notifications: the card says false and push-config calls are refused (PushNotificationNotSupportedError), as a build that dropped them")
	previousBuild := fs.Bool("previous-build", false, "be the previous build: also declare and serve an HTTP+JSON interface at "+fakes.PreviousBuildRESTPath+" and the required extension "+fakes.PreviousBuildExtension+", which later builds dropped (give it to --agent-cmd and a build without it to --agent-cmd-next for ROLL-007)")
	refuseEnded := fs.Bool("refuse-ended-configs", false, "refuse a push config for a task already in a terminal state with UnsupportedOperationError (a correct agent with no transition left to push)")
	refusePush := fs.Int("refuse-push-configs", 0, "answer the first `N` CreateTaskPushNotificationConfig calls with 503 and Retry-After, as an instance that cannot yet confirm a registration should (a correct agent whose refusals clients retry)")
	pushDelay := fs.Duration("push-delay", 0, "deliver each push this long after its event, as a queue-backed dispatcher does (acknowledged first, delivered later)")
	pushTwice := fs.Bool("push-twice", false, "deliver every push twice (delivery is at least once; receivers dedupe)")
	pushTerminal := fs.Bool("push-terminal-only", false, "push only the event that makes a task terminal (the spec does not guarantee a push for every event)")
	retryBase := fs.Duration("push-retry-base", 0, "wait after a push's first refused attempt, doubling after each further one (default 250ms)")
	retryMax := fs.Duration("push-retry-max", 0, "longest wait between two attempts of a push (default 8s)")
	attempts := fs.Int("push-attempts", 0, "attempts per push, the first included, before it is given up (default 6)")
	plainInput := fs.Bool("plain-input-required", false, "answer every message that carries neither a directive nor a prompt phrase with INPUT_REQUIRED, as an LLM agent asking a clarifying question does")
	emptySkills := fs.Bool("empty-skills", false, "publish \"skills\": [], as the spec's own example card does")
	omitETag := fs.Bool("omit-etag", false, "serve the card without an ETag, revalidated by Last-Modified alone (the ETag is a SHOULD, A2A v1.0.1 §8.6.1)")
	dialGuard := fs.Bool("push-dial-guard", false, "acknowledge every webhook URL and refuse, when delivering, to connect to a loopback, private or link-local address, as a2a-go v2.4.0's SSRF guard does by default")
	purged := fs.Bool("purge-canceled", false, "answer a cancel of a task already canceled with TaskNotFoundError, as an agent that purges canceled tasks may (A2A v1.0.1 §3.3.1)")
	oneStream := fs.Bool("one-stream-per-task", false, "refuse a SubscribeToTask with UnsupportedOperationError while another stream of the task is open (A2A v1.0.1 §3.5.2: an agent MAY serve several)")
	rateLimit := fs.Int("rate-limit", 0, "answer every binding request above `N` a second (per instance) with 429 Too Many Requests and Retry-After (gRPC RESOURCE_EXHAUSTED), as a rate-limited deployment does (a correct agent whose refusals clients retry)")
	shedOneIn := fs.Int("shed-one-in", 0, "answer one binding request in `N` with 503 and Retry-After (gRPC UNAVAILABLE), as an instance shedding load does (a correct agent whose refusals clients retry)")
	asyncCancel := fs.Duration("async-cancel", 0, "answer CancelTask at once with the task as it stands (WORKING) and apply the cancel this long later, unless the task ended first: an asynchronous cancel (A2A v1.0.1 §3.1.5 allows it)")
	lateDelay := fs.Duration("late-delay", 0, "how long after an acknowledged cancel the late cancel-then-complete faults (cancel-then-complete-late, cancel-then-artifact-late, cancel-then-push-complete-late) strike (default 500ms)")
	forward := fs.Bool("forward-to-owner", false, "pass every HTTP request about a task this instance does not run to the instance that runs it (at the address it registered in the shared --store) and relay the answer, streams included: replicas that forward to the owner")
	var faultF, allowF, tokenF listFlag
	fs.Var(&faultF, "fault", "faults to switch on, comma-separated")
	fs.Var(&tokenF, "auth-token", "require Authorization: Bearer `TOKEN` on every binding request (the card then declares the scheme); repeatable: each further token is another identity, whose tasks the others cannot see or list")
	fs.Var(&allowF, "webhook-allow", "SSRF allow-list: webhook URL `PREFIX`es (comma-separated) admitted although on loopback or a private address; with it set, every other such URL is refused (run the harness with a fixed --webhook-listen and give its http://ADDR/hook/ here). Default: every URL is delivered to")
	if done, code := parse(fs, args); done {
		return code
	}
	if *listHostile {
		for _, b := range fakes.HostileBehaviours() {
			fmt.Fprintf(stdout, "%-20s %s\n", b, fakes.HostileDescription(b))
		}
		return 0
	}
	if *hostile != "" {
		if fakes.HostileDescription(*hostile) == "" {
			fmt.Fprintf(stderr, "fake: --hostile %q: want one of %s\n", *hostile, strings.Join(fakes.HostileBehaviours(), ", "))
			return runner.ExitUsage
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		if err := fakes.ServeHostile(ctx, *listen, *hostile); err != nil {
			fmt.Fprintf(stderr, "fake: %v\n", err)
			return 1
		}
		return 0
	}
	if *listFaults {
		faultsTable(stdout, fakes.Faults())
		return 0
	}
	opts := fakes.Options{Name: *name, Faults: splitComma(faultF), StepDelay: *delay, PromptMap: *prompts, DisableDirective: *noDirective,
		WebhookAllow: splitComma(allowF), Generation: *generation, WarmUp: *warmUp, RefusePushConfigs: *refusePush, RefuseEndedConfigs: *refuseEnded,
		DrainGrace: *drainGrace, AnswerLatency: *answerLatency, DisableStreaming: *noStreaming, DisablePush: *noPush, PreviousBuild: *previousBuild,
		PushDelay: *pushDelay, DuplicatePushes: *pushTwice, TerminalPushesOnly: *pushTerminal,
		Push: fakes.PushOptions{MaxAttempts: *attempts, BaseDelay: *retryBase, MaxDelay: *retryMax, DialGuard: *dialGuard}, EmptySkills: *emptySkills,
		PlainInputRequired: *plainInput, PurgedOnSecondCancel: *purged, OneStreamPerTask: *oneStream, OmitETag: *omitETag,
		ForwardToOwner: *forward, RateLimit: *rateLimit, ShedOneIn: *shedOneIn, AsyncCancel: *asyncCancel, LateDelay: *lateDelay}
	if toks := splitComma(tokenF); len(toks) > 0 {
		opts.RequireAuth, opts.OtherTokens = toks[0], toks[1:]
	}
	if *generation < 1 || *warmUp < 0 || *warmUp > 10*time.Minute || *refusePush < 0 {
		fmt.Fprintf(stderr, "fake: --generation %d, --warm-up %s, --refuse-push-configs %d: want a generation ≥ 1, a warm-up between 0 and 10m and a count ≥ 0\n", *generation, *warmUp, *refusePush)
		return runner.ExitUsage
	}
	if *rateLimit < 0 || *rateLimit > 1000000 || *shedOneIn < 0 || *shedOneIn == 1 || *shedOneIn > 1000000 {
		fmt.Fprintf(stderr, "fake: --rate-limit %d, --shed-one-in %d: want 0 (off) or a rate up to 1000000, and 0 (off) or a count from 2 up to 1000000 (1 would refuse everything)\n", *rateLimit, *shedOneIn)
		return runner.ExitUsage
	}
	if *answerLatency < 0 || *answerLatency > time.Minute {
		fmt.Fprintf(stderr, "fake: --answer-latency %s: between 0 and 1m\n", *answerLatency)
		return runner.ExitUsage
	}
	if *drainGrace < 0 || *drainGrace > 10*time.Minute {
		fmt.Fprintf(stderr, "fake: --drain-grace %s: between 0 and 10m\n", *drainGrace)
		return runner.ExitUsage
	}
	if *pushDelay < 0 || *pushDelay > 10*time.Minute || *retryBase < 0 || *retryBase > 10*time.Minute ||
		*retryMax < 0 || *retryMax > 10*time.Minute || *attempts < 0 || *attempts > 100 {
		fmt.Fprintf(stderr, "fake: --push-delay %s, --push-retry-base %s, --push-retry-max %s, --push-attempts %d: want durations between 0 and 10m and at most 100 attempts\n",
			*pushDelay, *retryBase, *retryMax, *attempts)
		return runner.ExitUsage
	}
	if *asyncCancel < 0 || *asyncCancel > 10*time.Minute || *lateDelay < 0 || *lateDelay > 10*time.Minute {
		fmt.Fprintf(stderr, "fake: --async-cancel %s, --late-delay %s: between 0 and 10m\n", *asyncCancel, *lateDelay)
		return runner.ExitUsage
	}
	if *delay < 0 || *delay > 10*time.Minute {
		fmt.Fprintf(stderr, "fake: --delay %s: between 0 and 10m\n", *delay)
		return runner.ExitUsage
	}
	for _, f := range opts.Faults {
		if _, err := fakes.LookupFault(f); err != nil {
			fmt.Fprintf(stderr, "fake: %v\n", err)
			return runner.ExitUsage
		}
	}
	if *store != "" {
		if !strings.HasPrefix(*store, "sqlite:") || len(*store) == len("sqlite:") {
			fmt.Fprintf(stderr, "fake: --store wants sqlite:PATH, got %q\n", *store)
			return runner.ExitUsage
		}
		st, err := fakes.OpenStore(*store)
		if err != nil {
			fmt.Fprintf(stderr, "fake: %v\n", err)
			return runner.ExitUsage
		}
		defer st.Close()
		opts.Store = st
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if pid, err := strconv.Atoi(os.Getenv(topology.HarnessPIDEnv)); err == nil && pid > 1 {
		var gone context.CancelFunc
		ctx, gone = context.WithCancel(ctx)
		defer gone()
		go exitWithHarness(ctx, pid, gone)
	}
	if err := fakes.ServeWithGRPC(ctx, *listen, *grpcListen, opts); err != nil {
		fmt.Fprintf(stderr, "fake: %v\n", err)
		return 1
	}
	return 0
}

// exitWithHarness calls gone once process pid (the harness that started
// this fake through the process driver) no longer runs, checking every
// second: a fake its harness left behind stops serving (and polling its
// store) as it would on SIGTERM.
func exitWithHarness(ctx context.Context, pid int, gone func()) {
	p, err := os.FindProcess(pid)
	if err != nil {
		gone()
		return
	}
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if err := p.Signal(syscall.Signal(0)); errors.Is(err, os.ErrProcessDone) || errors.Is(err, syscall.ESRCH) {
			gone()
			return
		}
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// faultsCatching lists the reference agent's faults that name the spec.
func faultsCatching(id string) []string {
	var out []string
	for _, f := range fakes.Faults() {
		for _, s := range f.Specs {
			if s == id {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

func verifyCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("verify", stderr, verifyHelp)
	att := addAttestFlags(fs, true)
	pos, done, code := parseInterspersed(fs, args)
	if done {
		return code
	}
	if len(pos) != 1 {
		fs.Usage()
		return runner.ExitUsage
	}
	if err := att.check(true); err != nil {
		fmt.Fprintf(stderr, "verify: %v\n", err)
		return runner.ExitUsage
	}
	args = pos
	r, problems, err := reports.VerifyFile(args[0])
	if err != nil {
		fmt.Fprintf(stderr, "verify: %v\n", err)
		return 1
	}
	if len(problems) > 0 {
		fmt.Fprintf(stdout, "%s: INVALID\n", args[0])
		for _, p := range problems {
			fmt.Fprintf(stdout, "  - %s\n", p)
		}
		return 1
	}
	fmt.Fprintf(stdout, "%s: valid (%s %s, %d results, digest %s)\n", args[0], r.Implementation.Name, r.Implementation.Version, len(r.Results), r.Digest)
	// Valid is not complete: say what the report does not cover, against
	// this harness's own spec set when the report comes from this version.
	var declared []reports.DeclaredSpec
	if r.Harness.Version == runner.Version() {
		for _, d := range declaredSpecs() {
			if (d.Suite == suites.Client) == (r.Implementation.Role == "client") {
				declared = append(declared, d)
			}
		}
	}
	for _, why := range reports.PartialReasons(r, declared) {
		fmt.Fprintf(stdout, "  partial: %s\n", why)
	}
	return att.verifyAttestation(args[0], r, stdout)
}

// verifiedReport reads the report at path for command cmd and returns it
// when it is valid and unedited; otherwise it says why on w, naming every
// problem (and why on top, when given), and returns nil. Every command that
// acts on a submitted report (attest, baseline, rerun, scorecard) reads it
// this way; verify itself prints the problems as its answer.
func verifiedReport(cmd, path, why string, w io.Writer) *reports.Report {
	r, problems, err := reports.VerifyFile(path)
	if err != nil {
		fmt.Fprintf(w, "%s: %s: %v\n", cmd, path, err)
		return nil
	}
	if len(problems) > 0 {
		fmt.Fprintf(w, "%s: %s is not a valid, unedited report%s:\n", cmd, path, why)
		for _, p := range problems {
			fmt.Fprintf(w, "  - %s\n", p)
		}
		return nil
	}
	return r
}

// declaredSpecs is the spec set this harness version scores reports
// against, whatever a run selected: the agent specs for agents, the client
// specs for clients (the scorecard splits them by role).
func declaredSpecs() []reports.DeclaredSpec {
	var out []reports.DeclaredSpec
	for _, i := range suites.All() {
		out = append(out, reports.DeclaredSpec{ID: i.ID, Title: i.Title, Suite: i.Suite, Level: string(i.Level), Sections: i.Sections})
	}
	return out
}

// requirementSets are the frozen requirement sets this harness knows, the
// current one being its own registry (declaredSpecs).
func requirementSets() reports.RequirementSets {
	out := reports.RequirementSets{Current: suites.CurrentRequirements, Sets: map[string][]reports.DeclaredSpec{}}
	for name, set := range suites.RequirementSets() {
		out.Sets[name] = set.Specs
	}
	out.Sets[suites.CurrentRequirements] = declaredSpecs()
	return out
}

func scorecardCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("scorecard", stderr, scorecardHelp)
	out := fs.String("out", "", "output `DIR` for scorecard.html, scorecard.json and badges/")
	var ranHere listFlag
	fs.Var(&ranHere, "ran-here", "a `REPORT.json` the scorecard's own workflow produced (repeatable; it is merged too)")
	att := addAttestFlags(fs, false)
	adm := addAdmissionFlags(fs)
	if done, code := parse(fs, args); done {
		return code
	}
	paths := reportPaths(append(append([]string{}, ranHere...), fs.Args()...), stderr)
	if *out == "" || len(paths) == 0 {
		fs.Usage()
		return runner.ExitUsage
	}
	if err := att.check(false); err != nil {
		fmt.Fprintf(stderr, "scorecard: %v\n", err)
		return runner.ExitUsage
	}
	if err := adm.check(att); err != nil {
		fmt.Fprintf(stderr, "scorecard: %v\n", err)
		return runner.ExitUsage
	}
	var rs []*reports.Report
	for _, p := range paths {
		r := verifiedReport("scorecard", p, "", stderr)
		if r == nil {
			return 1
		}
		rs = append(rs, r)
	}
	var in []admitted
	refused := 0
	if adm.on() {
		// Admission first: a report left out takes no part in the build.
		if in, refused = adm.admit(rs, paths, ranHere, stdout, stderr); len(in) == 0 {
			fmt.Fprintf(stderr, "scorecard: no report was admitted: none is signed by the required signer, and --admit-self-reported was not given\n")
			return 1
		}
		rs = nil
		for _, a := range in {
			rs = append(rs, a.r)
		}
	}
	sc, err := reports.BuildScorecardSets(rs, requirementSets())
	if err != nil {
		fmt.Fprintf(stderr, "scorecard: %v\n", err)
		return 1
	}
	if adm.on() {
		for _, a := range in {
			sc.SetAttestation(a.r, a.att)
		}
		sc.SetAdmission(adm.record(refused))
	} else if code := markAttestations(sc, rs, paths, ranHere, att, stdout, stderr); code != 0 {
		return code
	}
	explain := func(id string) string {
		if i, ok := suites.Lookup(id); ok {
			return Explain(i)
		}
		return ""
	}
	if err := reports.WriteScorecard(*out, sc, explain); err != nil {
		fmt.Fprintf(stderr, "scorecard: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s/scorecard.html, scorecard.json and badges for %d report(s)\n", *out, len(rs))
	return 0
}
