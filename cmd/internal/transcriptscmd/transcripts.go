// Package transcriptscmd is "parley transcripts": list the debates, read
// one as a reader follows it, verify every file it produced against its
// seal, and make the key that signs seals.
//
// Each command is an options struct, a constructor NewCmdX(f, runF) and a
// run function, as in GitHub's gh (see cmdutil.Runner). It owns these
// commands' flags and output; reading and verifying a transcript is the
// service layer's (app, over package transcripts). It imports no other
// command package.
package transcriptscmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/config"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/internal/textview"
)

// NewCmd is "parley transcripts list | show ID | verify ID | keygen FILE".
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "transcripts",
		Short: "List, read and verify debate transcripts",
	}, NewCmdList(f, nil), NewCmdShow(f, nil), NewCmdVerify(f, nil), NewCmdKeygen(f, nil))
}

// ListOptions are what "parley transcripts list" was asked for.
type ListOptions struct {
	f     *cmdutil.Factory
	Query app.TranscriptQuery
}

// NewCmdList is "parley transcripts list [--layer L] [--verdict V]
// [--since DATE|AGE]": the debates under the root, newest first.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{f: f}
	run := cmdutil.Runner(opts, runF, listRun)
	cmd := &cobra.Command{
		Use:   "list [--layer L] [--verdict V] [--since DATE|AGE]",
		Short: "List the debates' transcripts, newest first (date, layer, verdict, rounds, tokens, integrity, id, topic)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := opts.Query.Filter(); err != nil {
				return f.Fail(err, cmdutil.Wording{})
			}
			return run(cmd)
		},
	}
	q := &opts.Query
	cmd.Flags().StringVar(&q.Layer, "layer", "", "only this layer: spec, plan or verify")
	cmd.Flags().StringVar(&q.Verdict, "verdict", "", "only this verdict: CONSENSUS_REACHED, DEADLOCK, BUDGET_EXHAUSTED, TIMEOUT or UNAVAILABLE")
	cmd.Flags().StringVar(&q.Since, "since", "", "only debates created since a date (2026-01-31), an RFC 3339 time, or an age (36h, 7d)")
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	f := opts.f
	list, err := f.Service().ListTranscripts(ctx, opts.Query)
	if errors.Is(err, fs.ErrNotExist) {
		return f.NoRootNote("no debates: ")
	}
	if err != nil {
		return err
	}
	if f.JSON {
		return cmdutil.EmitEach(f, list)
	}
	if q := opts.Query; len(list) == 0 && q.Layer == "" && q.Verdict == "" && q.Since == "" {
		// Nothing was filtered out: there is no debate yet (as "parley
		// debate list" says it), rather than none that "matches".
		f.Printf("no debates yet under %s (start one with %s)\n", f.RootDir(), f.CmdLine("debate", "run"))
		return nil
	}
	return textview.Transcripts(f.Stdout, list, f.RootDir(), f.StdoutTTY())
}

// ShowOptions are what "parley transcripts show" was asked for.
type ShowOptions struct {
	f *cmdutil.Factory
	// ID is the debate as typed: a whole id or a unique prefix.
	ID string
	// Format is text, md, html or json (json under --json).
	Format string
}

// NewCmdShow is "parley transcripts show ID [--format text|md|html|json]":
// a debate as a reader follows it, with the integrity of its transcript
// (and of its vault page) checked on the way.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{f: f}
	run := cmdutil.Runner(opts, runF, showRun)
	cmd := &cobra.Command{
		Use:   "show ID [--format text|md|html|json]",
		Short: "Print a debate: rounds, turns, evidence checks, rejections, forfeits and the verdict (exit 3 if tampered)",
		Long: "Reads the debate's transcript, verifies its hash chain, and compares the chain's\n" +
			"head with the one its vault page (wiki/debates/<id>.md) recorded at filing.\n" +
			"A transcript that does not verify, or whose vault page differs, is printed with\n" +
			"a banner naming the first bad line, and the command exits 3.",
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			if f.JSON {
				opts.Format = "json"
			}
			switch opts.Format {
			case "text", "md", "html", "json":
			default:
				return cmdutil.Usagef("--format %q: use text, md, html or json", opts.Format)
			}
			return run(cmd)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "text", "text, md (the vault page's Markdown), html (a whole page) or json")
	return cmd
}

func showRun(ctx context.Context, opts *ShowOptions) error {
	f := opts.f
	id, err := f.ResolveDebateID(opts.ID)
	if err != nil {
		return err
	}
	view, err := f.Service().ReadTranscript(ctx, id)
	if app.IsNoDebate(err) {
		return cmdutil.NotFoundf("no debate %s under %s (%s lists them)", id, f.RootDir(), f.CmdLine("transcripts", "list"))
	}
	if err != nil {
		return err
	}
	view.VerifyCommand = f.CmdLine("transcripts", "verify", id)
	if opts.Format == "json" {
		err = f.Emit(view)
	} else {
		err = textview.Transcript(f.Stdout, view, opts.Format)
	}
	if err != nil {
		return err
	}
	if in := view.Integrity; in.Tampered() {
		return cmdutil.BlockedError{Msg: fmt.Sprintf("debate %s does not verify: %s", id, termsafe.Clean(in.Trouble(), ""))}
	}
	return nil
}

// VerifyOptions are what "parley transcripts verify" was asked for.
type VerifyOptions struct {
	f  *cmdutil.Factory
	ID string // a whole id or a unique prefix
}

// NewCmdVerify is "parley transcripts verify ID": every file the debate
// produced checked against its seal (the transcript's hash chain,
// session.json, verdict.json, the vault page, the consensus record); exit
// 0 when all agree, 3 naming each file that differs or is missing and what
// an intact one would say.
func NewCmdVerify(f *cmdutil.Factory, runF func(*VerifyOptions) error) *cobra.Command {
	return cmdutil.OneArg(&cobra.Command{
		Use:   "verify ID",
		Short: "Check a debate's transcript, session, verdict, vault page and record against its seal (exit 3 naming the file if tampered)",
	}, &VerifyOptions{f: f}, func(o *VerifyOptions, id string) { o.ID = id }, runF, verifyRun)
}

func verifyRun(ctx context.Context, opts *VerifyOptions) error {
	f := opts.f
	id, err := f.ResolveDebateID(opts.ID)
	if err != nil {
		return err
	}
	v, err := f.Service().VerifyTranscript(ctx, id)
	if app.IsNoDebate(err) {
		return cmdutil.NotFoundf("no debate %s under %s (%s lists them)", id, f.RootDir(), f.CmdLine("debate", "list"))
	}
	if err != nil {
		return err
	}
	audit := func(w io.Writer, v *app.Verification) error {
		return textview.Audit(w, v, f.CmdLine("debate", "resume", v.ID))
	}
	if err := cmdutil.View(f, v, audit); err != nil {
		return err
	}
	if v.Tampered {
		return cmdutil.BlockedError{Msg: fmt.Sprintf("debate %s does not verify: %s", id, v.Integrity.Trouble())}
	}
	return nil
}

// KeygenOptions are what "parley transcripts keygen" was asked for.
type KeygenOptions struct {
	f    *cmdutil.Factory
	File string // where the new private key goes; never replaced
}

// NewCmdKeygen is "parley transcripts keygen FILE": a new ed25519 key for
// signing seals, written to FILE (0600, never replaced), and the
// config.json lines that use it.
func NewCmdKeygen(f *cmdutil.Factory, runF func(*KeygenOptions) error) *cobra.Command {
	return cmdutil.OneArg(&cobra.Command{
		Use:   "keygen FILE",
		Short: "Make an ed25519 key that signs every debate's seal, and print the config.json lines that use it",
		Long: "Writes a new ed25519 private key (base64) to FILE, readable by you only, and prints\n" +
			"the \"seal\" section for config.json: signingKey (FILE) and publicKey. With it, every\n" +
			"verdict.json parley writes is signed, and every seal read must carry a valid\n" +
			"signature: a debate rewritten by someone with write access but not the key shows\n" +
			"as tampered. Keep FILE out of reach of those you do not trust; give readers only\n" +
			"the publicKey.",
	}, &KeygenOptions{f: f}, func(o *KeygenOptions, file string) { o.File = file }, runF, keygenRun)
}

func keygenRun(_ context.Context, opts *KeygenOptions) error {
	f := opts.f
	key, err := app.NewSealKey(opts.File)
	if errors.Is(err, fs.ErrExist) {
		// Not a usage error: the command line is right, the file is there.
		return &cmdutil.Error{Msg: fmt.Sprintf("%s exists; parley never replaces a key (the seals it signed would no longer verify): give another file", opts.File), Err: err}
	}
	if err != nil {
		return err
	}
	if f.JSON {
		return f.Emit(map[string]any{"seal": key})
	}
	return textview.SealKey(f.Stdout, key, filepath.Join(f.RootDir(), config.FileName))
}
