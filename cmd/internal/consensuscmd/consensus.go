// Package consensuscmd is "parley consensus": list, show, search and check
// the filed records, and file a closed debate's record again.
//
// Each command is an options struct, a constructor and a run function, as
// in GitHub's gh: NewCmdX(f, runF) fills XOptions from the flags and
// arguments, refuses what is wrong on the command line (exit 2), and hands
// the options to runF when a test gives one, or to xRun, which does the
// work through the service layer (app.Consensus) and prints through the
// Factory. It owns the consensus commands' flags and output, nothing of
// what a record or a check means (package consensus, through app). It
// imports no other command package.
package consensuscmd

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/cmd/internal/cmdutil"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/internal/textview"
)

// NewCmd is "parley consensus": the filed records and the check before a
// decision.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	return cmdutil.Group(&cobra.Command{
		Use:   "consensus",
		Short: "List, show, search and check the filed consensus records",
		Long: "Every debate verdict is filed as a record in <vault>/wiki/consensus/.\n" +
			"Before deciding, run \"parley consensus check\": it exits 3 when the position\n" +
			"contradicts the active consensus of its question.",
	}, NewCmdList(f, nil), NewCmdShow(f, nil), NewCmdSearch(f, nil), NewCmdCheck(f, nil), NewCmdFile(f, nil))
}

// filterFlags fills q from --layer, --verdict and --status.
func filterFlags(cmd *cobra.Command, q *app.RecordQuery) {
	cmd.Flags().StringVar(&q.Layer, "layer", "", "only this layer: spec, plan or verify")
	cmd.Flags().StringVar(&q.Verdict, "verdict", "", "only this verdict: CONSENSUS_REACHED, DEADLOCK, BUDGET_EXHAUSTED or TIMEOUT")
	cmd.Flags().StringVar(&q.Status, "status", "", "only this status: active or superseded")
}

// filterText is q as its flags give it ("--layer plan --status active"),
// "" for no filter.
func filterText(q app.RecordQuery) string {
	var parts []string
	for _, f := range []struct{ flag, value string }{{"--layer", q.Layer}, {"--verdict", q.Verdict}, {"--status", q.Status}} {
		if f.value != "" {
			parts = append(parts, f.flag+" "+f.value)
		}
	}
	return strings.Join(parts, " ")
}

// ListOptions are what "parley consensus list" was asked for.
type ListOptions struct {
	f     *cmdutil.Factory
	Query app.RecordQuery
}

// NewCmdList is "parley consensus list".
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{f: f}
	run := cmdutil.Runner(opts, runF, listRun)
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the consensus records, newest first",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := opts.Query.Filter(); err != nil {
				return f.Fail(err, cmdutil.Wording{})
			}
			return run(cmd)
		},
	}
	filterFlags(cmd, &opts.Query)
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	f := opts.f
	if !f.HaveRoot() {
		return f.NoRootNote("no consensus records: ")
	}
	c, err := f.OpenConsensus()
	if errors.Is(err, app.ErrNoVault) {
		// As with no root: the list is empty, and the note says why.
		f.EmptyNote(err.Error())
		return nil
	}
	if err != nil {
		return err
	}
	defer c.Close()
	recs, err := c.List(ctx, opts.Query)
	if err != nil {
		return err
	}
	f.WarnSkipped(c)
	if f.JSON {
		return cmdutil.EmitEach(f, recs)
	}
	dir := filepath.Join(c.Store().Vault().Path(), consensus.Folder)
	if filter := filterText(opts.Query); len(recs) == 0 && filter != "" {
		return textview.NoRecordMatches(f.Stdout, filter, dir)
	}
	return textview.Records(f.Stdout, recs, dir, f.StdoutTTY())
}

// ShowOptions are what "parley consensus show" was asked for.
type ShowOptions struct {
	f    *cmdutil.Factory
	Name string // a record's name, file name, wikilink or debate id
}

// NewCmdShow is "parley consensus show NAME".
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	return cmdutil.OneArg(&cobra.Command{
		Use:   "show NAME",
		Short: "Print a record (by name, file name, wikilink or debate id)",
	}, &ShowOptions{f: f}, func(o *ShowOptions, name string) { o.Name = name }, runF, showRun)
}

func showRun(ctx context.Context, opts *ShowOptions) error {
	f := opts.f
	c, err := f.OpenConsensus()
	if err != nil {
		return err
	}
	defer c.Close()
	p, err := c.Show(ctx, opts.Name)
	if errors.Is(err, consensus.ErrNoRecord) {
		return fmt.Errorf("%w (%s lists them)", err, f.CmdLine("consensus", "list"))
	}
	if err != nil {
		return f.Fail(err, cmdutil.Wording{Name: func(string) string { return "NAME" }})
	}
	return cmdutil.View(f, p, textview.RecordPage)
}

// SearchOptions are what "parley consensus search" was asked for: the
// query is the arguments joined by spaces.
type SearchOptions struct {
	f  *cmdutil.Factory
	In app.SearchInput
}

// NewCmdSearch is "parley consensus search QUERY...".
func NewCmdSearch(f *cmdutil.Factory, runF func(*SearchOptions) error) *cobra.Command {
	opts := &SearchOptions{f: f}
	run := cmdutil.Runner(opts, runF, searchRun)
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Rank the records by relevance (BM25 over topic, positions and rationale)",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmdutil.Usagef("consensus search needs a query (see parley consensus search --help)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.In.Query = strings.Join(args, " ")
			if err := opts.In.Validate(); err != nil {
				// The query is the command's arguments, not a flag.
				return f.Fail(err, cmdutil.Wording{Name: func(field string) string {
					if field == "query" {
						return "QUERY"
					}
					return f.InputName(field)
				}})
			}
			return run(cmd)
		},
	}
	filterFlags(cmd, &opts.In.RecordQuery)
	cmd.Flags().IntVar(&opts.In.Limit, "limit", 10, "at most this many results")
	return cmd
}

func searchRun(ctx context.Context, opts *SearchOptions) error {
	f := opts.f
	c, err := f.OpenConsensus()
	if err != nil {
		return err
	}
	defer c.Close()
	hits, err := c.Search(ctx, opts.In)
	if err != nil {
		return f.Fail(err, cmdutil.Wording{})
	}
	f.WarnSkipped(c)
	if f.JSON {
		return cmdutil.EmitEach(f, hits)
	}
	return textview.SearchHits(f.Stdout, hits, opts.In.Query)
}

// CheckOptions are what "parley consensus check" was asked for.
type CheckOptions struct {
	f  *cmdutil.Factory
	In app.CheckInput
	// Lenient: an unclear answer exits 0, with a warning.
	Lenient bool
}

// NewCmdCheck is "parley consensus check": a position against the filed
// consensus of its question, exit 3 on a conflict.
func NewCmdCheck(f *cmdutil.Factory, runF func(*CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{f: f}
	run := cmdutil.Runner(opts, runF, checkRun)
	cmd := &cobra.Command{
		Use:   "check --layer L --topic T --position P",
		Short: "Check a position against the filed consensus (exit 3 on conflict)",
		Long: "Finds the active record of the question by meaning, in the same layer only:\n" +
			"a reworded topic (synonyms, word order, question form, numbers as words)\n" +
			"matches, a near-miss (another object or endpoint) does not. It then compares\n" +
			"the position with the record's final position by what carries meaning:\n" +
			"numbers with units, negation, the options named, conditions and exceptions.\n\n" +
			"  consistent  the same rule in other words                    exit 0\n" +
			"  conflict    the rule changed; differences say what          exit 3\n" +
			"  unclear     parley cannot tell                              exit 3 (0 with --lenient)\n" +
			"  open        the record bound nothing (DEADLOCK, TIMEOUT,    exit 0, with a warning\n" +
			"              BUDGET_EXHAUSTED without agreement)\n" +
			"  none        no record of this question (related are listed) exit 0\n" +
			"  tampered    the record, or a file of its debate, was changed  exit 3\n" +
			"              after filing (transcripts verify ID says which);\n" +
			"              keys you add and CRLF line ends are no change",
		RunE: func(cmd *cobra.Command, _ []string) error {
			// What is missing or wrong, before the vault is opened.
			if _, err := opts.In.Validate(); err != nil {
				return f.Fail(err, cmdutil.Wording{Help: "parley consensus check"})
			}
			return run(cmd)
		},
	}
	cmd.Flags().StringVar(&opts.In.Layer, "layer", "", "the question's layer: spec, plan or verify")
	cmd.Flags().StringVar(&opts.In.Topic, "topic", "", "the question's topic")
	cmd.Flags().StringVar(&opts.In.Position, "position", "", "the position about to be taken")
	cmd.Flags().BoolVar(&opts.Lenient, "lenient", false, "exit 0 when the answer is unclear (a warning is printed)")
	return cmd
}

func checkRun(ctx context.Context, opts *CheckOptions) error {
	f := opts.f
	c, err := f.OpenConsensus()
	if err != nil {
		return err
	}
	defer c.Close()
	out, err := c.Check(ctx, opts.In)
	if err != nil {
		return f.Fail(err, cmdutil.Wording{})
	}
	f.WarnSkipped(c)
	if err := cmdutil.View(f, out, textview.Check); err != nil {
		return err
	}
	warnings, blocked := textview.CheckEnd(out, opts.Lenient)
	for _, w := range warnings {
		f.Warnf("%s", w)
	}
	if blocked != "" {
		return cmdutil.BlockedError{Msg: blocked}
	}
	return nil
}

// FileOptions are what "parley consensus file" was asked for.
type FileOptions struct {
	f *cmdutil.Factory
	// DebateID is --from-debate as typed: a whole id or a unique prefix.
	DebateID string
}

// NewCmdFile is "parley consensus file --from-debate ID": the record of a
// closed debate, filed (again).
func NewCmdFile(f *cmdutil.Factory, runF func(*FileOptions) error) *cobra.Command {
	opts := &FileOptions{f: f}
	run := cmdutil.Runner(opts, runF, fileRun)
	cmd := &cobra.Command{
		Use:   "file --from-debate ID",
		Short: "File (again) the record of a closed debate; repairs what an interrupted filing left in the vault",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.DebateID == "" {
				return cmdutil.Usagef("consensus file needs --from-debate ID (see parley consensus file --help)")
			}
			return run(cmd)
		},
	}
	cmd.Flags().StringVar(&opts.DebateID, "from-debate", "", "the id of a closed debate under <root>/debates/")
	return cmd
}

func fileRun(ctx context.Context, opts *FileOptions) error {
	f := opts.f
	id, err := f.ResolveDebateID(opts.DebateID)
	if err != nil {
		return err
	}
	c, err := f.Service().FilingConsensus(id)
	if err != nil {
		return err
	}
	defer c.Close()
	filed, err := c.FileFrom(ctx, id)
	if err != nil {
		return err
	}
	if filed.NotClosed {
		f.Warnf("debate %s is not closed yet: its record is filed, but its vault page, its seal and verdict.json are not written; %s finishes closing it", id, f.CmdLine("debate", "resume", id))
	}
	if f.JSON {
		return f.Emit(filed)
	}
	if filed.Status == consensus.FiledAlready {
		f.Printf("already filed %s: left as it is\n", filed.File)
		if filed.Differs != "" {
			f.Warnf("%s differs from what debate %s filed and sealed (%s); filing never writes over a record: put it back from git, a backup or Obsidian's file recovery (see %s)",
				filed.Record, id, filed.Differs, f.CmdLine("transcripts", "verify", id))
		}
		return nil
	}
	f.Printf("filed %s\n", filed.File)
	if w := filed.Warning(); w != nil {
		f.Warnf("%v", w)
	}
	return nil
}
