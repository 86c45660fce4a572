// Package quicksend runs the plainest "parley send" before the rest of
// parley is initialised.
//
// Go initialises every package a binary holds before main runs, and
// parley's (goldmark, SQLite, the MCP SDK, NATS) cost a send three times
// what its one durable write does. Run is called from the init of a
// package that imports only what a send needs, which Go initialises before
// those: when the command line is a send it can do alone, it sends and the
// process exits without initialising the rest. For Go to reach it first,
// nothing this package imports may need reflect or strings (see
// internal/lean), so it sends with the messenger's own pieces that need
// neither: drop (the durable write into an inbox), livereg (a
// registration's liveness) and sendcheck.
//
// It judges nothing of its own. It sends only what the whole command
// would send without a word beside its result: a root with no settings
// (no config.json: the file messenger, its default timings), or with the
// config.json this binary last loaded there for a send over the file
// messenger (internal/checkedconfig), trusted as the command trusts one,
// with a vault the command takes (named by --vault or $PARLEY_VAULT,
// which a send never opens, or the root's own),
// a message sendcheck accepts, to an agent whose inbox exists and whose
// registration is live. Anything else (another form of the command line,
// standard input, a warning to give, an error to word, a registration
// livereg cannot read with certainty, a failed write that left nothing
// behind) is left to the whole command, which then does all of it, as if
// Run had not been called. The
// one error it says itself is a send that failed once its message was in
// the inbox (the directory's sync): the command would send it again, so
// Run says it, in the words the command would use (the error's own).
package quicksend

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"time"

	"github.com/parleyhq/parley/internal/checkedconfig"
	"github.com/parleyhq/parley/internal/drop"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/lean"
	"github.com/parleyhq/parley/internal/livereg"
	"github.com/parleyhq/parley/internal/rootdir"
	"github.com/parleyhq/parley/internal/sendcheck"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/internal/trust"
)

// Off is the value of $PARLEY_FASTPATH that leaves every send to the
// whole command (to compare the two, or to rule this path out).
const Off = "off"

// Request is a send's command line, as cobra reads it: the flags' values
// (Root and Vault empty when --root and --vault are not given; Type
// drop.TypeText unless --type is) and the text.
type Request struct {
	Root, Vault, From, To, Type, ReplyTo, Text string
	JSON                                       bool
}

// Run sends the message of args (the command line without the program's
// name) when it is a send this path can do alone, and writes what the
// command writes to stdout (through termsafe on a terminal, as the command
// does). handled reports whether the command line was this path's: then
// err, when not nil, is the command's error (exit status 1), said as the
// command says it: a send that failed once its message was in the inbox
// (which the command must not send again), or stdout that could not be
// written. getenv reads the environment.
func Run(args []string, getenv func(string) string, stdout io.Writer) (handled bool, err error) {
	if getenv("PARLEY_FASTPATH") == Off {
		return false, nil
	}
	r, ok := Parse(args)
	if !ok {
		return false, nil
	}
	m, f := sendcheck.Message(r.From, r.To, r.Type, r.ReplyTo, r.Text)
	if f != nil {
		return false, nil
	}
	root, _ := rootdir.Named(r.Root, getenv("PARLEY_ROOT"), false)
	vault := r.Vault
	if vault == "" {
		vault = getenv("PARLEY_VAULT")
	}
	ttl, ok := plainRoot(root, rootdir.ExpandHome(vault), getenv)
	if !ok {
		return false, nil
	}
	ok, err = deliver(root, m, ttl)
	if !ok {
		return false, nil
	}
	if err != nil {
		return true, err
	}
	if termsafe.IsTerminal(stdout) {
		w := termsafe.NewWriter(stdout)
		defer func() {
			if ferr := w.Flush(); err == nil {
				err = ferr
			}
		}()
		stdout = w
	}
	if r.JSON {
		return true, JSONLine(stdout, Encode(m))
	}
	return true, SentLine(stdout, m.ID, m.To)
}

// Parse reads args as "send" with its flags and one text, in any order
// cobra accepts (the global flags --root, --vault and --json before or
// after the command, send's own after it, before or after the text,
// "--flag value" and "--flag=value", the last of a repeated flag): ok is
// false for any other command line, and for the forms left to cobra
// (short flags, "--", a text from standard input, --verbose, --help, a
// boolean flag given a value).
func Parse(args []string) (r Request, ok bool) {
	r.Type = drop.TypeText
	var command, text bool
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-" || !lean.HasPrefix(a, "-") {
			switch {
			case !command && a == "send":
				command = true
			case command && !text && a != "-":
				r.Text, text = a, true
			default:
				return r, false
			}
			continue
		}
		name, value, hasValue := lean.Cut(lean.TrimPrefix(a, "--"), "=")
		if !lean.HasPrefix(a, "--") || name == "" {
			return r, false
		}
		if !command && name != "json" && name != "root" && name != "vault" {
			return r, false // send's own flags go after "send"; only the global ones may come before
		}
		var dst *string
		switch name {
		case "json", "require-live":
			// --require-live asks for a live recipient, the only kind this
			// path sends to.
			if hasValue {
				return r, false
			}
			if name == "json" {
				r.JSON = true
			}
			continue
		case "root":
			dst = &r.Root
		case "vault":
			dst = &r.Vault
		case "from":
			dst = &r.From
		case "to":
			dst = &r.To
		case "type":
			dst = &r.Type
		case "reply-to":
			dst = &r.ReplyTo
		default:
			return r, false
		}
		if !hasValue {
			if i+1 == len(args) {
				return r, false
			}
			i++
			value = args[i]
		}
		*dst = value
	}
	return r, command && text
}

// plainRoot reports whether root and vault (named, or "" for the
// root's own) are a root and a vault the command would use without a
// word, and the registration TTL a send there uses: a trusted directory
// holding a root's entries, with no config.json (the registry's default
// TTL) or the one this binary last checked for a send over the file
// messenger (checkedconfig: its TTL); a vault named that is not refused
// as no directory (a send opens no vault, and the command checks a named
// one for that alone), or the default vault inside the root.
func plainRoot(root, vault string, getenv func(string) string) (ttl time.Duration, ok bool) {
	fi, err := os.Stat(root)
	if err != nil || !fi.IsDir() || trust.Check("the parley root", root, fi) != nil || !rootdir.Have(root) {
		return 0, false
	}
	ttl = livereg.DefaultTTL
	if _, err := os.Lstat(path.Join(root, checkedconfig.ConfigName)); !errors.Is(err, fs.ErrNotExist) {
		if ttl, ok = checkedTTL(root, getenv); !ok {
			return 0, false
		}
	}
	if vault != "" {
		return ttl, !rootdir.NotADirectory(vault)
	}
	fi, err = os.Lstat(path.Join(root, "vault"))
	return ttl, errors.Is(err, fs.ErrNotExist) || err == nil && fi.IsDir()
}

// checkedTTL is the TTL of root's config.json, when it is the one this
// binary, in this environment, last checked there (checkedconfig.TTL).
func checkedTTL(root string, getenv func(string) string) (time.Duration, bool) {
	self, ok := checkedconfig.Self(getenv)
	if !ok {
		return 0, false
	}
	// As config.Load opens the root: by the path given.
	r, err := os.OpenRoot(root)
	if err != nil {
		return 0, false
	}
	defer r.Close()
	return checkedconfig.TTL(r, self)
}

// customFS is the file system of a send here: none (the root's own) but
// in tests, which inject a failing one.
var customFS durable.FS

// Encode is the wire form of a message without typed fields: what
// inbox.Message.Encode writes for it (both write the keys with
// drop.AppendHead).
func Encode(h drop.Head) []byte {
	return append(drop.AppendHead(make([]byte, 0, 256+len(h.Text)), h), '}')
}

// deliver sends h to a recipient whose inbox exists and whose
// registration is live, as the file messenger does (drop.Put): ok is
// false, with nothing sent, for any other recipient, for a message over
// the limit once encoded and on any error but one. A send that failed
// once its message was in the inbox (drop.Placed) is ok, with that error:
// the command, run after it, would send the message twice.
//
// It reads the root as the command's messenger opens it (inbox.
// NewFileTransport, registry.Open): the inboxes and registrations are
// real directories, the recipient's inbox exists (FileTransport.Exists;
// drop.Put checks it before anything is made) and its registration, read
// by livereg, is live by the registry's rule.
// Anything it cannot tell is the command's to say.
func deliver(root string, h drop.Head, ttl time.Duration) (ok bool, err error) {
	data := Encode(h)
	if len(data) > drop.MaxMessageBytes {
		return false, nil
	}
	abs, err := lean.Abs(root)
	if err != nil {
		return false, nil
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return false, nil
	}
	defer r.Close()
	// The recipient's inbox is drop.Put's to check: a send to none fails
	// with nothing made, and is left to the command.
	for _, dir := range []string{drop.InboxDir, livereg.Dir} {
		if drop.CheckDir(r, dir) != nil {
			return false, nil
		}
	}
	reg, ok := livereg.Load(r, h.To)
	host, _ := os.Hostname()
	if !ok || !livereg.Alive(reg, host, time.Now(), ttl, livereg.PIDAlive) {
		return false, nil
	}
	if err := drop.Put(r, customFS, h.To, h.From, data, time.Now()); err != nil {
		return drop.Placed(err), err
	}
	return true, nil
}

// SentLine writes the line "parley send" prints once a message is
// delivered.
func SentLine(w io.Writer, id, to string) error {
	_, err := io.WriteString(w, "sent "+id+" to "+to+"\n")
	return err
}

// JSONLine writes a message's wire form (data) on a line: what "parley
// send --json" prints.
func JSONLine(w io.Writer, data []byte) error {
	_, err := w.Write(append(data[:len(data):len(data)], '\n'))
	return err
}
