package cmdutil

// The habits every command shares, applied once to the whole command tree:
// examples in the help, "did you mean" for commands and flags, the exact
// command line to paste in a hint, waits on standard input that Ctrl-C
// ends, and roots that commands which only read never create.

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parleyhq/parley/internal/interrupt"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/internal/textview"
)

// Polish applies the shared habits to every command under root: the
// examples of its help (by CommandKey), the usage error of a command
// group given an unknown subcommand (also when --help follows it: see
// Execute), no arguments for a command that does not say how many it
// takes, and flag errors that suggest the flag meant.
func Polish(root *cobra.Command, examples map[string]string) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if ex, ok := examples[CommandKey(c)]; ok {
			c.Example = strings.TrimRight(ex, "\n")
		}
		switch {
		case c.HasSubCommands() && c != root && !c.Runnable():
			// cobra's completion: without a Run, cobra prints its help and
			// exits 0 for any word ("parley completion bsh" > a script
			// file); as a Group, a word that is no shell is an error.
			Group(c)
		case c.HasSubCommands() && c != root && c.Args == nil: // a group that runs itself too (bench)
			setGroupArgs(c)
		case c.Args == nil && c != root && c.Name() != "help": // cobra's help takes a command's path
			c.Args = ExactArgs(0)
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	setGroupArgs(root)
	root.SetFlagErrorFunc(flagError)
	show := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if err := helpOfUnknown(c); err != nil && c.Context() != nil {
			if p, ok := c.Context().Value(helpErrKey{}).(*error); ok {
				*p = err
				return
			}
		}
		show(c, args)
	})
	for _, c := range root.Commands() {
		if c.Name() == "help" && c.Run != nil {
			helpTopics(c)
		}
	}
}

// helpTopics makes cobra's help command refuse a topic that names no
// command, as the commands themselves do (exit 2, with the nearest
// names): cobra's prints the root's help and exits 0 for "parley help
// debat", or the group's for "parley help debate rn".
func helpTopics(help *cobra.Command) {
	show := help.Run
	help.Run = nil
	help.RunE = func(c *cobra.Command, args []string) error {
		if cmd, rest, err := c.Root().Find(args); err == nil && cmd != nil && len(rest) > 0 {
			return unknownCommand(cmd, rest[0])
		}
		show(c, args)
		return nil
	}
}

// Execute runs the polished root under ctx (root.ExecuteContext) and
// returns its error, or the usage error of a help asked for after a word
// that names no command: cobra answers "parley agnets --help" with the
// root's help and "parley agents lst -h" with the group's, and exits 0, so
// that the slip goes unseen; here it is the error the same words without
// --help give (exit 2, with the nearest names). An error of a command that
// a signal stopped (ctx's cause, interrupt.On) carries the signal, for
// ExitCode.
func Execute(ctx context.Context, root *cobra.Command) error {
	var helpErr error
	if err := root.ExecuteContext(context.WithValue(ctx, helpErrKey{}, &helpErr)); err != nil {
		return interrupt.Stopped(ctx, err) // ExitCode answers for the signal
	}
	return helpErr
}

// helpErrKey is the context key of where Execute takes the error of a
// help asked for after an unknown command.
type helpErrKey struct{}

// groupAnnotation marks a command whose Args is groupArgs: every word
// after it that reaches it (rather than a subcommand) names no command.
const groupAnnotation = "parley/group"

// setGroupArgs makes c refuse a word that names none of its subcommands.
func setGroupArgs(c *cobra.Command) {
	c.Args = groupArgs
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[groupAnnotation] = "yes"
}

// helpOfUnknown is the usage error of a help flag given to the command
// group c after a word that names none of its subcommands (nil if none).
func helpOfUnknown(c *cobra.Command) error {
	if c.Annotations[groupAnnotation] == "" || !c.Flags().Parsed() {
		return nil
	}
	if words := c.Flags().Args(); len(words) > 0 {
		return unknownCommand(c, words[0])
	}
	return nil
}

// Group makes c a command that holds subs: run alone, it prints its help;
// a word after it that names no subcommand is a usage error.
func Group(c *cobra.Command, subs ...*cobra.Command) *cobra.Command {
	setGroupArgs(c)
	c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	c.AddCommand(subs...)
	return c
}

// CommandKey is a command's path without the leading "parley ".
func CommandKey(c *cobra.Command) string {
	p := c.CommandPath()
	if i := strings.IndexByte(p, ' '); i >= 0 {
		return p[i+1:]
	}
	return ""
}

// groupArgs refuses a word that names no subcommand of a command group,
// suggesting the nearest subcommands.
func groupArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return unknownCommand(cmd, args[0])
}

// unknownCommand is the usage error for name, which is no subcommand of cmd.
func unknownCommand(cmd *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q for %q", termsafe.Clean(name, ""), cmd.CommandPath())
	if f, sub := valueTaken(cmd); f != nil {
		// "parley --root debate list": the command became the root.
		value := strings.ToUpper(f.Name)
		if strings.Contains(f.Usage, "directory") {
			value = "DIR"
		}
		words := append([]string{cmd.CommandPath(), "--" + f.Name, value, sub}, cmd.Flags().Args()...)
		return Usagef("%s: --%s took %q as its value; give it one, as in %s", msg, f.Name, sub, suggest.CommandLine(words...))
	}
	s := siblingCommands(cmd, name)
	if len(s) == 0 {
		s = append(nestedCommands(cmd, name), SuggestCommands(cmd, name)...)
	}
	if len(s) > 0 {
		msg += "; did you mean " + suggest.OrList(s) + "?"
	}
	return Usagef("%s (see %s --help)", msg, cmd.CommandPath())
}

// valueTaken is a flag given to cmd that takes a value and was given the
// name of one of cmd's subcommands as it (a directory forgotten after
// --root), and that name: the words after it then read as cmd's own.
func valueTaken(cmd *cobra.Command) (*pflag.Flag, string) {
	var found *pflag.Flag
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if found != nil || f.Value.Type() == "bool" {
			return
		}
		for _, s := range cmd.Commands() {
			if s.IsAvailableCommand() && s.Name() == f.Value.String() {
				found = f
			}
		}
	})
	if found == nil {
		return nil, ""
	}
	return found, found.Value.String()
}

// SuggestCommands names the subcommands of cmd close to name: within two
// edits, or starting with it (suggest.Near).
func SuggestCommands(cmd *cobra.Command, name string) []string {
	var out []string
	for _, s := range cmd.Commands() {
		if s.IsAvailableCommand() && (suggest.Near(name, s.Name()) || slices.Contains(s.SuggestFor, strings.ToLower(name))) {
			out = append(out, cmd.CommandPath()+" "+s.Name())
		}
	}
	return out
}

// nestedCommands names the commands name one level down, under cmd's
// command groups: "parley verify" is "parley transcripts verify", "parley
// lint" is "parley vault lint", "parley run" is "parley agent run" or
// "parley debate run".
func nestedCommands(cmd *cobra.Command, name string) []string {
	var out []string
	for _, g := range cmd.Commands() {
		if !g.IsAvailableCommand() {
			continue
		}
		for _, s := range g.Commands() {
			if s.IsAvailableCommand() && s.Name() == name {
				out = append(out, s.CommandPath())
			}
		}
	}
	return out
}

// siblingCommands names the commands name of the groups whose name is
// close to cmd's ("parley agents list" for "parley agent list", "parley
// agent run" for "parley agents run"): one letter apart is a slip a
// newcomer makes, and the word after it is the command meant.
func siblingCommands(cmd *cobra.Command, name string) []string {
	if !cmd.HasParent() {
		return nil
	}
	var out []string
	for _, g := range cmd.Parent().Commands() {
		if g == cmd || !g.IsAvailableCommand() || !suggest.Near(cmd.Name(), g.Name()) {
			continue
		}
		for _, s := range g.Commands() {
			if s.IsAvailableCommand() && s.Name() == name {
				out = append(out, s.CommandPath())
			}
		}
	}
	return out
}

// unknownFlagRE takes the flag's name out of pflag's "unknown flag: --x"
// and "unknown shorthand flag: 'x' in -x".
var unknownFlagRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^unknown (?:shorthand )?flag: (?:--([^\s=]+)|'(.)')`)
})

// unknownArgRE takes the whole word out of pflag's "unknown flag: --x y"
// and "unknown shorthand flag: 'x' in -x y".
var unknownArgRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)^unknown (?:flag: (--.*)|shorthand flag: '.' in (-.*))$`)
})

// notAFlag returns the word a flag error is about when no flag could be
// spelt so — it holds a space, or starts with '-' and a digit ("-1 is
// wrong", "--all of it", "-5%") — so that it is a text or a number that
// starts with '-', meant as an argument (flagError says so when cmd takes
// an argument).
func notAFlag(err error) (string, bool) {
	m := unknownArgRE().FindStringSubmatch(err.Error())
	if m == nil {
		return "", false
	}
	arg := m[1] + m[2]
	if strings.ContainsAny(arg, " \t\n") {
		return arg, true
	}
	rest := strings.TrimLeft(arg, "-")
	return arg, len(arg)-len(rest) == 1 && rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

// flagError turns a flag error into a usage error that suggests the flag
// meant, among the flags cmd accepts (its own and the global ones).
func flagError(cmd *cobra.Command, err error) error {
	if args := cmd.Flags().Args(); cmd.HasSubCommands() && len(args) > 0 {
		// "parley agents run --name X": a word that names no subcommand
		// of a group is the mistake, not the flag of the command meant.
		if err := cmd.ValidateArgs(args); err != nil {
			return err
		}
	}
	if arg, ok := notAFlag(err); ok && cmd.ValidateArgs([]string{arg}) == nil {
		return Usagef("%s is not a flag of %q: an argument that starts with '-' goes after -- (%s [flags] -- %s)",
			suggest.Quote(termsafe.Clean(arg, "")), cmd.CommandPath(), cmd.CommandPath(), suggest.Quote(termsafe.Clean(arg, "")))
	}
	if msg := err.Error(); strings.Contains(msg, "time: ") && strings.Contains(msg, " duration \"") {
		// Go's words for "ninety", for more than a duration holds
		// ("10000000h"), for a bare number ("missing unit") and for a
		// unit it lacks ("unknown unit \"days\"") say nothing of what
		// would do.
		return Usagef("%v: a duration is a number with a unit, ms, s, m or h (such as 30s, 2m or 1h30m), of at most %dh (see %s --help)",
			err, math.MaxInt64/int64(time.Hour), cmd.CommandPath())
	}
	m := unknownFlagRE().FindStringSubmatch(err.Error())
	if m == nil || m[1] == "" {
		return Usagef("%v (see %s --help)", err, cmd.CommandPath())
	}
	typed := m[1]
	var out []string
	seen := map[string]bool{}
	visit := func(f *pflag.Flag) {
		if f.Hidden || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		if suggest.Near(typed, f.Name) {
			out = append(out, "--"+f.Name)
		}
	}
	cmd.LocalFlags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	sort.Strings(out)
	msg := fmt.Sprintf("unknown flag --%s for %q", termsafe.Clean(typed, ""), cmd.CommandPath())
	if len(out) > 0 {
		msg += "; did you mean " + suggest.OrList(out) + "?"
	}
	return Usagef("%s (see %s --help)", msg, cmd.CommandPath())
}

// CmdLine is the command line a hint asks the user to run, ready to paste:
// "parley", the --root and --vault given to this command, then args, each
// quoted for a POSIX shell where it needs to be (app.App.CommandLine, which
// words the service layer's own hints the same way).
func (a *Factory) CmdLine(args ...string) string {
	return a.Service().CommandLine(args...)
}

// NoRootError says there is no parley root where a command that only reads
// looked for one, and how to make one. Exit 1: nothing is there to read.
func (a *Factory) NoRootError(what string) error {
	return &Error{Msg: fmt.Sprintf("%sthere is no parley root at %s (%s makes one)", what, a.RootDir(), a.CmdLine("init")),
		Err: fs.ErrNotExist}
}

// NoRootNote says, for a command that lists (what: "no debates: "), that
// there is no root: the list is empty, not an error (EmptyNote).
func (a *Factory) NoRootNote(what string) error {
	a.EmptyNote(a.NoRootError(what).Error())
	return nil
}

// EmptyNote says why a list is empty when there is nothing to list from
// (no root, no vault): on standard output in place of the list, or,
// under --json, as a warning on stderr, so that standard output stays
// JSON Lines (none) and a mistyped --root is not silence.
func (a *Factory) EmptyNote(note string) {
	if a.JSON {
		a.Warnf("%s", note)
		return
	}
	a.Printf("%s\n", note)
}

// HaveRoot reports whether the root exists (as anything: a root that is
// not a directory is for the command that opens it to refuse).
func (a *Factory) HaveRoot() bool { return a.Service().HaveRoot() }

// ReadStdin reads standard input whole (interrupt.ReadAll: at most limit
// bytes, and one more to tell that it is over; Ctrl-C, ctx's end, ends the
// wait). On a terminal it first says what it waits for and how to end it.
func (a *Factory) ReadStdin(ctx context.Context, what string, limit int64) ([]byte, error) {
	a.stdinHint(ctx, what)
	return interrupt.ReadAll(ctx, a.Stdin, limit)
}

// SourceName is how a message names an input a command read: "standard
// input" for "-" (which the user may never have typed: "parley gate"
// alone reads it), else the file as it was given.
func SourceName(source string) string {
	if source == "-" {
		return "standard input"
	}
	return source
}

// stdinHint says, on a terminal, what a command waits for on standard
// input and how to end it, once ctx listens for Ctrl-C.
func (a *Factory) stdinHint(ctx context.Context, what string) {
	_ = ctx.Done() // listening before the hint says Ctrl-C cancels
	if termsafe.IsTerminal(a.Stdin) {
		fmt.Fprintf(a.Stderr, "parley: reading %s from standard input: end it with Ctrl-D on a line of its own (Ctrl-C cancels)\n", what)
	}
}

// StdinReader is standard input read as it arrives (interrupt.Reader:
// Ctrl-C, ctx's end, ends a wait). On a terminal it first says what it
// waits for and how to end it, as ReadStdin does.
func (a *Factory) StdinReader(ctx context.Context, what string) io.Reader {
	a.stdinHint(ctx, what)
	return interrupt.Reader(ctx, a.Stdin)
}

// StdoutTTY reports whether human output goes to a terminal: then list
// commands print a header row. Never under --json.
func (a *Factory) StdoutTTY() bool {
	return !a.JSON && (a.TTY != nil || termsafe.IsTerminal(a.Stdout))
}

// FileError is the error of a file named on the command line that cannot
// be read (missing, unreadable, malformed): exit 1, like every other thing
// named that is not there, prefixed with what named it.
func FileError(what string, err error) error {
	return &Error{Msg: fmt.Sprintf("%s: %v", what, err), Err: err}
}

// ArgCountError is the usage error of a command given too many or too few
// arguments: how many it takes, and its usage line.
func ArgCountError(cmd *cobra.Command, bound string, want, got int) error {
	takes := "no arguments"
	if want > 0 || bound != "" {
		takes = fmt.Sprintf("%s%d argument%s", bound, want, textview.Plural(want, "", "s"))
	}
	return Usagef("%s takes %s, got %d (usage: %s)", cmd.CommandPath(), takes, got, cmd.UseLine())
}

// ExactArgs is cobra.ExactArgs whose failure is a usage error.
func ExactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return ArgCountError(cmd, "", n, len(args))
		}
		return nil
	}
}

// MaxArgs is cobra.MaximumNArgs whose failure is a usage error.
func MaxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return ArgCountError(cmd, "at most ", n, len(args))
		}
		return nil
	}
}

// Runner is a command's RunE body in gh's shape: it hands the command's
// options to runF when a test gave one (the options as the command line
// filled them, nothing run), and to run otherwise.
func Runner[O any](opts *O, runF func(*O) error, run func(context.Context, *O) error) func(*cobra.Command) error {
	return func(cmd *cobra.Command) error {
		if runF != nil {
			return runF(opts)
		}
		return run(cmd.Context(), opts)
	}
}

// OneArg makes cmd a command of exactly one argument in gh's shape: set
// gives the argument to opts, then Runner runs it.
func OneArg[O any](cmd *cobra.Command, opts *O, set func(*O, string), runF func(*O) error, run func(context.Context, *O) error) *cobra.Command {
	r := Runner(opts, runF, run)
	cmd.Args = ExactArgs(1)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		set(opts, args[0])
		return r(cmd)
	}
	return cmd
}
