package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/internal/textview"
)

// newConsensusCmd is "parley consensus": the filed records and the check
// before a decision (SPEC §6).
func newConsensusCmd(a *factory) *cobra.Command {
	return group(&cobra.Command{
		Use:   "consensus",
		Short: "List, show, search and check the filed consensus records",
		Long: "Every debate verdict is filed as a record in <vault>/wiki/consensus/.\n" +
			"Before deciding, run \"parley consensus check\": it exits 3 when the position\n" +
			"contradicts the active consensus of its question.",
	}, newConsensusListCmd(a), newConsensusShowCmd(a), newConsensusSearchCmd(a), newConsensusCheckCmd(a), newConsensusFileCmd(a))
}

// openConsensus opens the consensus store (app.OpenConsensus) for the
// commands that only read records (show, search, check, lint): with no
// root it says so, and makes none.
func (a *factory) openConsensus() (*app.Consensus, error) {
	if !a.haveRoot() {
		return nil, a.noRootError("no consensus records: ")
	}
	return a.service().OpenConsensus()
}

// warnSkipped names the record files the store skipped, once each, on stderr.
func (a *factory) warnSkipped(c *app.Consensus) {
	for _, w := range c.Skipped() {
		a.warnf("%s", textview.Warning(w))
	}
}

// filterFlags fills q from --layer, --verdict and --status.
func filterFlags(cmd *cobra.Command, q *app.RecordQuery) {
	cmd.Flags().StringVar(&q.Layer, "layer", "", "only this layer: spec, plan or verify")
	cmd.Flags().StringVar(&q.Verdict, "verdict", "", "only this verdict: CONSENSUS_REACHED, DEADLOCK, BUDGET_EXHAUSTED or TIMEOUT")
	cmd.Flags().StringVar(&q.Status, "status", "", "only this status: active or superseded")
}

func newConsensusListCmd(a *factory) *cobra.Command {
	var q app.RecordQuery
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the consensus records, newest first",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := q.Filter(); err != nil {
				return a.fail(err, wording{})
			}
			if !a.haveRoot() {
				return a.noRootNote("no consensus records: ")
			}
			c, err := a.openConsensus()
			if err != nil {
				return err
			}
			defer c.Close()
			recs, err := c.List(cmd.Context(), q)
			if err != nil {
				return err
			}
			a.warnSkipped(c)
			if a.json {
				return emitEach(a, recs)
			}
			return textview.Records(a.stdout, recs, filepath.Join(c.Store().Vault().Path(), consensus.Folder), a.stdoutTTY())
		},
	}
	filterFlags(cmd, &q)
	return cmd
}

func newConsensusShowCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print a record (by name, file name, wikilink or debate id)",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.openConsensus()
			if err != nil {
				return err
			}
			defer c.Close()
			p, err := c.Show(cmd.Context(), args[0])
			if errors.Is(err, consensus.ErrNoRecord) {
				return fmt.Errorf("%w (%s lists them)", err, a.cmdLine("consensus", "list"))
			}
			if err != nil {
				return a.fail(err, wording{name: func(string) string { return "NAME" }})
			}
			return view(a, p, textview.RecordPage)
		},
	}
}

func newConsensusSearchCmd(a *factory) *cobra.Command {
	var in app.SearchInput
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Rank the records by relevance (BM25 over topic, positions and rationale)",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("consensus search needs a query (see parley consensus search --help)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Query = strings.Join(args, " ")
			if err := in.Validate(); err != nil {
				return a.fail(err, wording{})
			}
			c, err := a.openConsensus()
			if err != nil {
				return err
			}
			defer c.Close()
			hits, err := c.Search(cmd.Context(), in)
			if err != nil {
				return a.fail(err, wording{})
			}
			a.warnSkipped(c)
			if a.json {
				return emitEach(a, hits)
			}
			return textview.SearchHits(a.stdout, hits, in.Query)
		},
	}
	filterFlags(cmd, &in.RecordQuery)
	cmd.Flags().IntVar(&in.Limit, "limit", 10, "at most this many results")
	return cmd
}

func newConsensusCheckCmd(a *factory) *cobra.Command {
	var (
		in      app.CheckInput
		lenient bool
	)
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
			"  none        no record of this question (related are listed) exit 0",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if in.Layer == "" || strings.TrimSpace(in.Topic) == "" || strings.TrimSpace(in.Position) == "" {
				return usagef("consensus check needs --layer, --topic and --position")
			}
			if _, err := in.Validate(); err != nil {
				return a.fail(err, wording{})
			}
			c, err := a.openConsensus()
			if err != nil {
				return err
			}
			defer c.Close()
			out, err := c.Check(cmd.Context(), in)
			if err != nil {
				return a.fail(err, wording{})
			}
			a.warnSkipped(c)
			if err := view(a, out, textview.Check); err != nil {
				return err
			}
			warnings, blocked := textview.CheckEnd(out, lenient)
			for _, w := range warnings {
				a.warnf("%s", w)
			}
			if blocked != "" {
				return blockedError{blocked}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&in.Layer, "layer", "", "the question's layer: spec, plan or verify")
	cmd.Flags().StringVar(&in.Topic, "topic", "", "the question's topic")
	cmd.Flags().StringVar(&in.Position, "position", "", "the position about to be taken")
	cmd.Flags().BoolVar(&lenient, "lenient", false, "exit 0 when the answer is unclear (a warning is printed)")
	return cmd
}

func newConsensusFileCmd(a *factory) *cobra.Command {
	var id string
	cmd := &cobra.Command{
		Use:   "file --from-debate ID",
		Short: "File (again) the record of a closed debate; finishes an interrupted filing",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if id == "" {
				return usagef("consensus file needs --from-debate ID")
			}
			id, err := a.resolveDebateID(id)
			if err != nil {
				return err
			}
			c, err := a.service().OpenConsensus()
			if err != nil {
				return err
			}
			defer c.Close()
			f, err := c.FileFrom(cmd.Context(), id)
			if err != nil {
				return err
			}
			if a.json {
				return a.emit(f)
			}
			a.printf("filed %s\n", f.File)
			return nil
		},
	}
	cmd.Flags().StringVar(&id, "from-debate", "", "the id of a closed debate under <root>/debates/")
	return cmd
}

// view prints v: one JSON line under --json, else the text view of it.
func view[T any](a *factory, v T, text func(io.Writer, T) error) error {
	if a.json {
		return a.emit(v)
	}
	return text(a.stdout, v)
}

// emitEach prints one JSON line per value (--json).
func emitEach[T any](a *factory, vs []T) error {
	for _, v := range vs {
		if err := a.emit(v); err != nil {
			return err
		}
	}
	return nil
}
