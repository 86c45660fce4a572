// Package config reads <root>/config.json, parley's optional settings file.
// A missing file means all defaults; an unknown key is an error, so that a
// misspelt setting never silently does nothing.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/jsonerr"
	"github.com/parleyhq/parley/internal/regfile"
	"github.com/parleyhq/parley/internal/rootdir"
	"github.com/parleyhq/parley/internal/trust"
)

// FileName is the settings file's name under the root.
const FileName = "config.json"

// MaxBytes bounds config.json.
const MaxBytes = 1 << 20

var (
	// ErrInvalid wraps every problem with a config file's content.
	ErrInvalid = errors.New("invalid config")
	// ErrNotDirectory means the root is not a directory (a file, a
	// device): there is no config.json to read, nor anything else.
	ErrNotDirectory = errors.New("not a directory")
	// ErrSealKeyMismatch means the seal section cannot sign what its
	// readers check: a public key with no signing key, or a signing key
	// that is not the public key's private half.
	ErrSealKeyMismatch = errors.New("seal keys do not match")
)

// Config is the whole of config.json. Every section is optional.
type Config struct {
	Debate     Debate     `json:"debate"`
	Messenger  Messenger  `json:"messenger"`
	Escalation Escalation `json:"escalation"`
	OpenAI     OpenAI     `json:"openai"`
	Consensus  Consensus  `json:"consensus"`
	// Transport names the messenger's backend: TransportFile (the
	// default: inboxes and registry under the root), TransportNATS (a
	// NATS JetStream server, for agents on several machines), or another
	// one registered by name. The service layer (package app), which
	// knows the registered backends, refuses a name none is registered
	// under.
	Transport string `json:"transport,omitempty"`
	// NATS configures the "nats" transport.
	NATS NATS `json:"nats"`
	// Seal configures the signing of debate seals.
	Seal Seal `json:"seal"`

	// source is config.json's bytes, as Load read them (nil without one).
	source []byte
}

// Source is the content of the config.json Load read this configuration
// from: nil when the root has none, or when the Config was not loaded.
func (c *Config) Source() []byte { return c.source }

// The messenger transports.
const (
	TransportFile = "file"
	TransportNATS = "nats"
)

// Defaults of the "nats" section.
const (
	DefaultNATSURL      = "nats://127.0.0.1:4222"
	DefaultNATSReplicas = 1
	// DefaultNATSRetryMs is the transport's own default
	// (jetstream.DefaultRetry), repeated here for config's messages.
	DefaultNATSRetryMs = 30000
)

// NATS holds the settings of the NATS JetStream transport.
type NATS struct {
	// URL is the server, or a comma-separated list of a cluster's servers
	// (nats://, tls://, ws:// or wss://; default nats://127.0.0.1:4222).
	URL string `json:"url,omitempty"`
	// Credentials is the path of a NATS credentials file (.creds); a
	// relative path is relative to the root directory (Load resolves it).
	Credentials string `json:"credentials,omitempty"`
	// Replicas is the replication factor of the stream and buckets parley
	// creates on a cluster (1 to 5, default 1).
	Replicas int `json:"replicas,omitempty"`
	// RetryMs is how long connecting, and every operation, retries while
	// the server does not answer (default 30000: a server restart).
	RetryMs int `json:"retryMs,omitempty"`
}

// UseNATS reports whether the messenger runs over NATS JetStream.
func (c *Config) UseNATS() bool { return c.Transport == TransportNATS }

// Debate holds debate settings.
type Debate struct {
	// Budgets overrides the budget of each layer ("spec", "plan", "verify").
	Budgets map[debate.Layer]debate.BudgetOverride `json:"budgets,omitempty"`
}

// Messenger holds file-messenger settings.
type Messenger struct {
	// ReconcileMs is the period of the inbox reconciliation scan (default 1000).
	ReconcileMs int `json:"reconcileMs,omitempty"`
	// HeartbeatTTLMs is how old a heartbeat may be before its agent counts
	// as dead (default 30000).
	HeartbeatTTLMs int `json:"heartbeatTtlMs,omitempty"`
}

// Defaults of the messenger section (the packages' own defaults, repeated
// here so that "parley config show" can print them).
const (
	DefaultReconcileMs    = 1000
	DefaultHeartbeatTTLMs = 30000
)

// Budget returns the effective budget of layer l: the default with the
// config's override applied.
func (c *Config) Budget(l debate.Layer) debate.ConsensusBudget {
	return debate.DefaultBudget(l).Apply(c.Debate.Budgets[l])
}

// CheckRoot refuses a root that exists but is not a directory, or whose
// path goes through a file, with the error Load gives it (wrapping
// ErrNotDirectory, saying what to give --root); a root that does not
// exist, or cannot be looked at, is for what opens it to report.
func CheckRoot(root string) error {
	if rootdir.NotADirectory(root) {
		return notDirectory(root)
	}
	return nil
}

// notDirectory is the error of a root that is not a directory.
func notDirectory(root string) error {
	return fmt.Errorf("the root %s is %w; give --root a directory (parley init creates one)", root, ErrNotDirectory)
}

// Load reads <root>/config.json. A missing file (or root) yields the
// defaults; a root that is not a directory is ErrNotDirectory, and what is
// wrong with the file's content ErrInvalid.
//
// Like ssh with its configuration, Load refuses (with a *trust.Error that
// says how to fix it) a root or a config.json that is writable by group or
// others or owned by another user: config.json names commands parley runs.
// config.json is opened inside the root: a symbolic link out of it is
// refused.
func Load(root string) (*Config, error) {
	if err := trust.Path("the parley root", root); err != nil {
		return nil, err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		if fi, serr := os.Stat(root); serr == nil && !fi.IsDir() {
			err = syscall.ENOTDIR
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Config{}, nil
	case errors.Is(err, syscall.ENOTDIR):
		if r != nil {
			r.Close()
		}
		return nil, notDirectory(root)
	case err != nil:
		return nil, err
	}
	defer r.Close()
	name := filepath.Join(root, FileName)
	// A named pipe planted as config.json must not block every command in
	// open(2) (where not even SIGTERM gets it out): trust.Open refuses it,
	// as it refuses a file someone else could have written.
	f, err := trust.Open("config.json", r, FileName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Config{}, nil
	case errors.Is(err, regfile.ErrNotRegular):
		return nil, fmt.Errorf("%w: %w; replace it with a JSON file or remove it", ErrInvalid, err)
	case errors.Is(err, trust.ErrUntrusted):
		return nil, err
	case err != nil:
		if li, lerr := r.Lstat(FileName); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(name)
			return nil, fmt.Errorf("%w: %s is a symbolic link to %s, out of the root; copy the file into the root instead", ErrInvalid, name, target)
		}
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrInvalid, name, MaxBytes)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// Against the root's absolute path: a path resolved against a
	// relative root (.parley) would name another file once written back
	// as config.json ("parley config show") and read against the root again.
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	c.NATS.Credentials = Resolve(abs, c.NATS.Credentials)
	c.Seal.SigningKey = Resolve(abs, c.Seal.SigningKey)
	c.source = data
	return c, nil
}

// Parse decodes config.json content strictly: unknown keys, unknown layers
// and invalid budgets are errors wrapping ErrInvalid.
func Parse(data []byte) (*Config, error) {
	c := &Config{}
	// A byte order mark (Notepad's, PowerShell's UTF-8) is no JSON: as for
	// an agent script, it is not read as the file's.
	file := bytes.TrimPrefix(data, []byte("\ufeff"))
	data = bytes.TrimSpace(file)
	start := len(file) - len(bytes.TrimLeftFunc(file, unicode.IsSpace)) // where data starts in the file
	if len(data) == 0 {
		return c, nil
	}
	if data[0] != '{' && data[0] != '/' && data[0] != '#' { // a comment first is for the decoder to place
		return nil, fmt.Errorf("%w: config.json holds one JSON object ({…})", ErrInvalid)
	}
	if dup, err := duplicateKey(data); err != nil || dup != "" {
		if err == nil {
			err = errors.New(dup)
		}
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		// The decoder names an unknown key alone; Unknown says where it
		// is, and where it goes when it was put one level off.
		if u := jsonerr.Unknown(file, reflect.TypeFor[Config]()); u != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, u)
		}
		return nil, fmt.Errorf("%w: %v", ErrInvalid, jsonerr.At(jsonerr.Explain(err, configKeys(), "docs/config.md lists the keys; parley config show prints them all"), file, start))
	}
	// More misses a stray ']' or '}' after the object: look at the rest.
	if off := dec.InputOffset(); off < 0 || off > int64(len(data)) || len(bytes.TrimSpace(data[off:])) != 0 {
		return nil, fmt.Errorf("%w: trailing data after the JSON object", ErrInvalid)
	}
	for l := range c.Debate.Budgets {
		// Budget looks layers up in lower case: "Spec" would never apply.
		if pl, err := debate.ParseLayer(string(l)); err != nil || pl != l {
			return nil, fmt.Errorf("%w: debate.budgets: unknown layer %q (use spec, plan or verify, in lower case)", ErrInvalid, l)
		}
		if err := c.Budget(l).Validate(); err != nil {
			return nil, budgetError(l, err)
		}
	}
	for _, s := range c.msSettings() {
		if err := s.check(); err != nil {
			return nil, err
		}
	}
	if err := c.Escalation.validate(); err != nil {
		return nil, fmt.Errorf("%w: escalation.%v", ErrInvalid, err)
	}
	if err := c.Seal.validate(); err != nil {
		return nil, fmt.Errorf("%w: seal.%v", ErrInvalid, err)
	}
	if err := c.OpenAI.validate(); err != nil {
		return nil, fmt.Errorf("%w: openai.%v", ErrInvalid, err)
	}
	if err := c.Consensus.validate(); err != nil {
		return nil, fmt.Errorf("%w: consensus.%v", ErrInvalid, err)
	}
	if c.NATS.Replicas < 0 || c.NATS.Replicas > 5 {
		return nil, fmt.Errorf("%w: nats.replicas %d: use 1 to 5", ErrInvalid, c.NATS.Replicas)
	}
	if c.NATS.URL != "" {
		for _, u := range strings.Split(c.NATS.URL, ",") {
			u = strings.TrimSpace(u)
			scheme, rest, ok := strings.Cut(u, "://")
			if !ok || rest == "" || strings.ContainsAny(rest, " \t\n") || !slices.Contains([]string{"nats", "tls", "ws", "wss"}, scheme) {
				return nil, fmt.Errorf("%w: nats.url %q: use nats://HOST:PORT (or tls://, ws://, wss://), several separated by commas", ErrInvalid, u)
			}
		}
	}
	return c, nil
}

// budgetError is the refusal of layer l's budget, naming the limit by its
// key in config.json.
func budgetError(l debate.Layer, err error) error {
	var be *debate.BudgetError
	if !errors.As(err, &be) {
		return fmt.Errorf("%w: debate.budgets.%s: %v", ErrInvalid, l, err)
	}
	rule := "must be positive"
	if be.Max > 0 {
		rule = fmt.Sprintf("use 1 to %d (%v)", be.Max, time.Duration(be.Max)*time.Millisecond)
	}
	return fmt.Errorf("%w: debate.budgets.%s.%s %d: %s", ErrInvalid, l, be.Limit, be.Value, rule)
}

// maxDepth bounds how deeply config.json may nest (its own shape is three
// levels deep), so that the duplicate-key walk stays small.
const maxDepth = 32

// duplicateKey says which setting an object of data first gives twice,
// and what to do ("" if none): the decoder would keep the last value and
// drop the other without a word. A setting's key matches whatever its
// case (the decoder's rule: "ReconcileMs" sets reconcileMs), so within the
// object of a section two spellings of one key are the same setting given
// twice; the keys of a map (layers, model names) are compared as written.
// Syntax errors are left to the decoder, which reports them better.
func duplicateKey(data []byte) (string, error) {
	errSyntax := errors.New("syntax")
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func(path string, t reflect.Type, depth int) (string, error)
	walk = func(path string, t reflect.Type, depth int) (string, error) {
		if depth > maxDepth {
			return "", fmt.Errorf("nested more than %d levels deep", maxDepth)
		}
		tok, err := dec.Token()
		if err != nil {
			return "", errSyntax
		}
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch tok {
		case json.Delim('{'):
			var fields map[string]reflect.Type // a section's settings, by key in lower case
			if t != nil && t.Kind() == reflect.Struct {
				fields = jsonerr.FieldTypes(t)
			}
			seen := map[string]string{} // as compared → as written
			for dec.More() {
				kt, err := dec.Token()
				k, ok := kt.(string)
				if err != nil || !ok {
					return "", errSyntax
				}
				sub := k
				if path != "" {
					sub = path + "." + k
				}
				same, sub2 := k, reflect.Type(nil)
				switch {
				case fields != nil:
					same, sub2 = strings.ToLower(k), fields[strings.ToLower(k)]
				case t != nil && t.Kind() == reflect.Map:
					sub2 = t.Elem()
				}
				if first, dup := seen[same]; dup {
					if first != k {
						return fmt.Sprintf("%s is given twice, as %q and %q (a key matches whatever its case); keep one", sub, first, k), nil
					}
					return sub + " is given twice; keep one", nil
				}
				seen[same] = k
				if dup, err := walk(sub, sub2, depth+1); dup != "" || err != nil {
					return dup, err
				}
			}
		case json.Delim('['):
			var elem reflect.Type
			if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
				elem = t.Elem()
			}
			for dec.More() {
				if dup, err := walk(path, elem, depth+1); dup != "" || err != nil {
					return dup, err
				}
			}
		default:
			return "", nil
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return "", errSyntax
		}
		return "", nil
	}
	dup, err := walk("", reflect.TypeFor[Config](), 0)
	if errors.Is(err, errSyntax) {
		return "", nil
	}
	return dup, err
}

// configKeys are the keys config.json may hold, at any depth.
var configKeys = sync.OnceValue(func() []string { return jsonerr.Keys(reflect.TypeFor[Config]()) })
