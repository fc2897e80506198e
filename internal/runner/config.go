// Package runner turns a run configuration into one Ginkgo run of the selected
// specs against a target, and the ConformanceReport and its files.
package runner

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/a2a-conform/a2a-conform/internal/topology"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Config is one run. The config file uses the flag names as keys (YAML or
// JSON); flags given on the command line win over the file.
type Config struct {
	Target      string   `json:"target,omitempty" yaml:"target,omitempty"`
	Suites      []string `json:"suite,omitempty" yaml:"suite,omitempty"`
	LabelFilter string   `json:"label-filter,omitempty" yaml:"label-filter,omitempty"`
	Focus       []string `json:"focus,omitempty" yaml:"focus,omitempty"`
	Seed        int64    `json:"seed,omitempty" yaml:"seed,omitempty"`
	// Shard "i/n" runs only shard i of n of the selection
	// (suites.InShard); a2a-conform merge joins the n reports.
	Shard  string   `json:"shard,omitempty" yaml:"shard,omitempty"`
	Out    string   `json:"out,omitempty" yaml:"out,omitempty"`
	Faults []string `json:"fault,omitempty" yaml:"fault,omitempty"`
	// Headers are "Name: value" lines added to every request to the agent.
	Headers []string `json:"header,omitempty" yaml:"header,omitempty"`
	// SecondHeaders name a second identity of the agent ("Name: value"
	// lines): the scoping specs send them in place of the run's headers of
	// the same names, and check that this identity cannot see the tasks the
	// first created (spec §13.1).
	SecondHeaders []string `json:"second-header,omitempty" yaml:"second-header,omitempty"`
	// CAFile is a PEM file of CA certificates the harness trusts besides the
	// system's, for an https:// agent whose certificate a private CA signed.
	CAFile string `json:"ca-file,omitempty" yaml:"ca-file,omitempty"`
	// GRPCDescriptorSet is a serialized FileDescriptorSet (protoc
	// --include_imports --descriptor_set_out) defining lf.a2a.v1.A2AService,
	// used on gRPC interfaces in place of the built-in a2a.proto (which
	// matches the official v1.0.0 file), e.g. for a later protocol version.
	GRPCDescriptorSet string `json:"grpc-descriptor-set,omitempty" yaml:"grpc-descriptor-set,omitempty"`
	// GRPCPlaintextHosts are hosts besides loopback the harness may speak
	// plaintext h2c to on a gRPC interface (an agent in a CI service
	// network); the report's run notes say so.
	GRPCPlaintextHosts []string `json:"grpc-plaintext-host,omitempty" yaml:"grpc-plaintext-host,omitempty"`
	AgentCmd           string   `json:"agent-cmd,omitempty" yaml:"agent-cmd,omitempty"`
	AgentCmdNext       string   `json:"agent-cmd-next,omitempty" yaml:"agent-cmd-next,omitempty"`
	Instances          int      `json:"instances,omitempty" yaml:"instances,omitempty"`
	// StartTimeout bounds how long each --agent-cmd instance may take to
	// serve its card, at the start and at every restart or roll (default
	// topology.ReadyTimeout).
	StartTimeout time.Duration `json:"start-timeout,omitempty" yaml:"start-timeout,omitempty"`
	// WaitReady, with --target, keeps trying the first card fetch while the
	// target refuses connections or answers 502, 503 or 504 (a deployment
	// still coming up), for at most this long; zero tries once (a 503 is
	// still waited out for Readiness).
	WaitReady     time.Duration `json:"wait-ready,omitempty" yaml:"wait-ready,omitempty"`
	WebhookListen string        `json:"webhook-listen,omitempty" yaml:"webhook-listen,omitempty"`
	WebhookURL    string        `json:"webhook-url,omitempty" yaml:"webhook-url,omitempty"`

	// HookRotateCard, HookRestartInstance and HookRolloutStep are the hooks
	// driver's commands (with Target): shell command lines the rollout specs
	// run at those points; HookTimeout bounds each.
	HookRotateCard      string        `json:"hook-rotate-card,omitempty" yaml:"hook-rotate-card,omitempty"`
	HookRestartInstance string        `json:"hook-restart-instance,omitempty" yaml:"hook-restart-instance,omitempty"`
	HookRolloutStep     string        `json:"hook-rollout-step,omitempty" yaml:"hook-rollout-step,omitempty"`
	HookTimeout         time.Duration `json:"hook-timeout,omitempty" yaml:"hook-timeout,omitempty"`

	// PromptMap gives, for agents without the directive extension, the text
	// that makes the agent show each behaviour the timing specs need.
	PromptMap     map[string]string `json:"prompt-map,omitempty" yaml:"prompt-map,omitempty"`
	SubscribeVerb string            `json:"subscribe-verb,omitempty" yaml:"subscribe-verb,omitempty"`
	RaceTrials    int               `json:"race-trials,omitempty" yaml:"race-trials,omitempty"`
	// PushRetryWait is how long PUSH-007 waits for the retry of a push its
	// receiver refused (default suites.DefaultPushRetryWait).
	PushRetryWait time.Duration `json:"push-retry-wait,omitempty" yaml:"push-retry-wait,omitempty"`
	// JWKS is a JSON Web Key Set file with the keys that verify the card's
	// signatures when they carry no jku (DISC-017).
	JWKS string `json:"jwks,omitempty" yaml:"jwks,omitempty"`
	// RequestTimeout bounds the wait for an answer's headers (default 30 s).
	RequestTimeout time.Duration `json:"request-timeout,omitempty" yaml:"request-timeout,omitempty"`
	// Parallel is how many specs run at once; 0 leaves it to the run, once
	// it knows how the agent is driven (suites.ParallelFor).
	Parallel int `json:"parallel,omitempty" yaml:"parallel,omitempty"`
	// Patience is the least time a spec waits for a task to reach a state
	// (default 10 s); it grows to the agent's observed pace.
	Patience time.Duration `json:"patience,omitempty" yaml:"patience,omitempty"`
	// MaxRPS bounds the requests per second the harness sends to each
	// instance (0: unbounded); internal/client's Pace, routed by paceRoute.
	MaxRPS int `json:"max-rps,omitempty" yaml:"max-rps,omitempty"`
	// NoDirective tells the harness not to use the directive extension even if
	// the card advertises it (to exercise the prompt-map path).
	NoDirective bool `json:"no-directive,omitempty" yaml:"no-directive,omitempty"`
	// Implementation overrides the name/version taken from the card.
	ImplementationName    string `json:"implementation-name,omitempty" yaml:"implementation-name,omitempty"`
	ImplementationVersion string `json:"implementation-version,omitempty" yaml:"implementation-version,omitempty"`

	// Expect and RetryUnexpected are read by the CLI around the run
	// (internal/cli/gate.go): a baseline file of expected non-passes that
	// replaces the exit code's rule, and how many times to re-run each
	// unexpected non-pass alone.
	Expect          string `json:"expect,omitempty" yaml:"expect,omitempty"`
	RetryUnexpected int    `json:"retry-unexpected,omitempty" yaml:"retry-unexpected,omitempty"`
	// Previous is an earlier run's report.json, also read by the CLI: the
	// run's report.html shows what changed since it. It changes no verdict
	// and no exit code, and is not one of the run's Args (a re-run does not
	// need the file).
	Previous string `json:"previous,omitempty" yaml:"previous,omitempty"`
}

// HeaderEnv is the environment variable that may carry auth headers, one
// "Name: value" per line, so that CI secrets need not appear on a command line.
const HeaderEnv = "A2A_CONFORM_HEADERS"

// SecondHeaderEnv carries the second identity's headers the same way.
const SecondHeaderEnv = "A2A_CONFORM_SECOND_HEADERS"

// DefaultOut is where reports go when --out is not given.
const DefaultOut = "a2a-conform-report"

// maxConfigFile bounds the config file we read.
const maxConfigFile = 1 << 20

// LoadFile reads a YAML or JSON config file (JSON is YAML, so one parser reads
// both); unknown keys are an error so that a typo does not silently drop a
// setting, and every error names the file, the line and the key
// (decodeConfig).
func LoadFile(path string) (Config, error) {
	var c Config
	f, err := os.Open(path)
	if err != nil {
		return c, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(f, maxConfigFile+1)); err != nil {
		return c, err
	}
	if buf.Len() > maxConfigFile {
		return c, fmt.Errorf("%s: larger than %d bytes", path, maxConfigFile)
	}
	return decodeConfig(path, buf.Bytes())
}

// Validate checks everything that would otherwise fail inside RunSpecs
// (Ginkgo exits the process on a bad label filter before any report is
// written) and normalises the config. Every problem is reported at once.
func (c *Config) Validate() error {
	var errs []string
	add := func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }

	if c.Target != "" {
		u, err := url.Parse(c.Target)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add("--target %q: want an http(s) URL such as https://agent.example.com", c.Target)
		}
		c.Target = strings.TrimRight(c.Target, "/")
		if len(c.Faults) > 0 {
			add("--fault only applies to the embedded reference agent (no --target)")
		}
	}
	c.Suites = splitList(c.Suites)
	for _, s := range c.Suites {
		if !contains(suites.AllSuiteNames, s) {
			add("--suite %q: known suites are %s", s, strings.Join(suites.AllSuiteNames, ", "))
		}
	}
	c.Focus = splitList(c.Focus)
	for i, id := range c.Focus {
		info, ok := suites.Lookup(id)
		if !ok {
			add("--focus %q: no such spec (a2a-conform list shows them)", id)
			continue
		}
		c.Focus[i] = info.ID
	}
	if c.LabelFilter != "" {
		if _, err := types.ParseLabelFilter(c.LabelFilter); err != nil {
			add("--label-filter %q: %v", c.LabelFilter, firstLine(err.Error()))
		}
	}
	c.Shard = strings.TrimSpace(c.Shard)
	if c.Shard != "" {
		if _, _, err := suites.ParseShard(c.Shard); err != nil {
			add("--shard %q: %v", c.Shard, err)
		}
	}
	c.Faults = splitList(c.Faults)
	for _, h := range c.Headers {
		if _, _, err := parseHeader(h); err != nil {
			add("--header %q: %v", redactHeaderLine(h), err)
		}
	}
	for _, h := range c.SecondHeaders {
		if _, _, err := parseHeader(h); err != nil {
			add("--second-header %q: %v", redactHeaderLine(h), err)
		}
	}
	switch strings.ToUpper(c.SubscribeVerb) {
	case "":
		c.SubscribeVerb = "POST"
	case "GET", "POST":
		c.SubscribeVerb = strings.ToUpper(c.SubscribeVerb)
	default:
		add("--subscribe-verb %q: GET or POST", c.SubscribeVerb)
	}
	if c.RaceTrials < 0 || c.RaceTrials > 100000 {
		add("--race-trials %d: between 1 and 100000", c.RaceTrials)
	}
	if c.RaceTrials == 0 {
		c.RaceTrials = DefaultRaceTrials
	}
	if c.PushRetryWait < 0 || c.PushRetryWait > 0 && c.PushRetryWait < time.Second || c.PushRetryWait > time.Hour {
		add("--push-retry-wait %s: between 1s and 1h", c.PushRetryWait)
	}
	if c.MaxRPS < 0 || c.MaxRPS > 100000 {
		add("--max-rps %d: between 0 (unbounded) and 100000", c.MaxRPS)
	}
	if c.Instances < 0 || c.Instances > 16 {
		add("--instances %d: between 1 and 16", c.Instances)
	}
	if c.WebhookURL != "" {
		if u, err := url.Parse(c.WebhookURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add("--webhook-url %q: want the http(s) base URL at which the agent reaches the harness's receiver", c.WebhookURL)
		}
	}
	if c.AgentCmdNext != "" && c.AgentCmd == "" {
		add("--agent-cmd-next needs --agent-cmd")
	}
	if c.AgentCmd != "" && c.Target != "" {
		add("--agent-cmd starts the agent itself: give it or --target, not both")
	}
	if c.Instances != 0 && c.Target != "" {
		add("--instances needs --agent-cmd or the embedded agent (a --target is one endpoint the harness does not control)")
	}
	if c.AgentCmd != "" && len(c.Faults) > 0 {
		add("--fault only applies to the embedded reference agent; put faults in the --agent-cmd command line")
	}
	hooks := c.HookCommands()
	if len(hooks) > 0 && c.Target == "" {
		what := "the embedded reference agent, which the harness changes itself"
		if c.AgentCmd != "" {
			what = "--agent-cmd, whose instances the harness starts and replaces itself"
		}
		add("--hook-rotate-card, --hook-restart-instance and --hook-rollout-step change a deployment you run: they need --target (this run has %s)", what)
	}
	if c.HookTimeout < 0 || (c.HookTimeout > 0 && c.HookTimeout < time.Second) || c.HookTimeout > time.Hour {
		add("--hook-timeout %s: between 1s and 1h", c.HookTimeout)
	}
	for _, h := range c.GRPCPlaintextHosts {
		if h == "" || strings.ContainsAny(h, "/ \t,") || strings.Contains(h, "://") {
			add("--grpc-plaintext-host %q: want a bare host name or address, as the card's gRPC URL names it (e.g. agent)", h)
		}
	}
	if c.StartTimeout < 0 || (c.StartTimeout > 0 && c.StartTimeout < time.Second) || c.StartTimeout > time.Hour {
		add("--start-timeout %s: between 1s and 1h", c.StartTimeout)
	}
	if c.StartTimeout != 0 && c.AgentCmd == "" {
		add("--start-timeout bounds the start of --agent-cmd's instances; without --agent-cmd use --wait-ready with --target")
	}
	if c.WaitReady < 0 || c.WaitReady > time.Hour {
		add("--wait-ready %s: between 0 and 1h", c.WaitReady)
	}
	if c.WaitReady != 0 && c.Target == "" {
		add("--wait-ready waits for --target to come up; the harness waits for the agents it starts by itself (--start-timeout for --agent-cmd)")
	}
	if c.HookTimeout != 0 && len(hooks) == 0 {
		add("--hook-timeout needs a hook command (--hook-rotate-card, --hook-restart-instance or --hook-rollout-step)")
	}
	if c.HookTimeout == 0 && len(hooks) > 0 {
		c.HookTimeout = topology.DefaultHookTimeout
	}
	if c.RequestTimeout < 0 || c.RequestTimeout > 10*time.Minute {
		add("--request-timeout %s: between 1ms and 10m", c.RequestTimeout)
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = DefaultRequestTimeout
	}
	if c.Parallel < 0 || c.Parallel > 64 {
		add("--parallel %d: between 1 and 64", c.Parallel)
	}
	if c.Patience < 0 || c.Patience > time.Hour {
		add("--patience %s: between 1ms and 1h", c.Patience)
	}
	if c.Patience == 0 {
		c.Patience = suites.DefaultPatience
	}
	if c.Out == "" {
		c.Out = DefaultOut
	}
	if c.Seed < 0 || c.Seed > maxSeed {
		add("--seed %d: between 1 and %d (report numbers must stay exact in every JSON reader)", c.Seed, maxSeed)
	}
	if c.Seed == 0 {
		c.Seed = time.Now().UnixNano() % 1_000_000
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid configuration:\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}

// HookCommands maps each hook point that has a command (not blank) to it.
func (c *Config) HookCommands() map[string]string {
	out := map[string]string{}
	for p, cmd := range map[string]string{
		topology.HookRotateCard:      c.HookRotateCard,
		topology.HookRestartInstance: c.HookRestartInstance,
		topology.HookRolloutStep:     c.HookRolloutStep,
	} {
		if strings.TrimSpace(cmd) != "" {
			out[p] = cmd
		}
	}
	return out
}

// maxSeed keeps the seed exact as a JSON number (2^53-1).
const maxSeed = 1<<53 - 1

// DefaultRequestTimeout is how long the harness waits for an answer to start.
const DefaultRequestTimeout = 30 * time.Second

// DefaultRaceTrials sizes the cancel-then-complete race so the default run
// finishes in seconds against the reference agent.
const DefaultRaceTrials = 200

// HeaderSet parses the configured headers (and HeaderEnv) into an http.Header.
func (c *Config) HeaderSet() (http.Header, error) {
	return headerSet(c.Headers, HeaderEnv)
}

// SecondHeaderSet parses the second identity's headers (and SecondHeaderEnv);
// empty when the run has no second identity.
func (c *Config) SecondHeaderSet() (http.Header, error) {
	return headerSet(c.SecondHeaders, SecondHeaderEnv)
}

func headerSet(configured []string, envName string) (http.Header, error) {
	h := http.Header{}
	lines := append([]string(nil), configured...)
	if env := os.Getenv(envName); env != "" {
		for _, l := range strings.Split(env, "\n") {
			if strings.TrimSpace(l) != "" {
				lines = append(lines, l)
			}
		}
	}
	for _, l := range lines {
		k, v, err := parseHeader(l)
		if err != nil {
			return nil, fmt.Errorf("header %q: %w", redactHeaderLine(l), err)
		}
		h.Add(k, v)
	}
	return h, nil
}

func parseHeader(line string) (string, string, error) {
	k, v, ok := strings.Cut(line, ":")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" || v == "" {
		return "", "", fmt.Errorf("want 'Name: value'")
	}
	for _, r := range k {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune("()<>@,;:\\\"/[]?={}", r) {
			return "", "", fmt.Errorf("invalid header name")
		}
	}
	if strings.ContainsAny(v, "\r\n") {
		return "", "", fmt.Errorf("header value may not contain line breaks")
	}
	return http.CanonicalHeaderKey(k), v, nil
}

// redactHeaderLine keeps the header name and hides its value in messages.
func redactHeaderLine(l string) string {
	k, _, ok := strings.Cut(l, ":")
	if !ok {
		return "[unparseable header]"
	}
	return strings.TrimSpace(k) + ": [REDACTED]"
}

func splitList(in []string) []string {
	var out []string
	for _, s := range in {
		for _, p := range strings.Split(s, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func firstLine(s string) string {
	s = ansi.ReplaceAllString(s, "")
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
