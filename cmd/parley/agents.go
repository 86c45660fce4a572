package main

import (
	"errors"
	"fmt"
	"github.com/parleyhq/parley/app"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/jetstream"
	"github.com/parleyhq/parley/registry"
)

// newAgentsCmd is "parley agents list|show|prune|add".
func newAgentsCmd(a *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "List, show, prune and add agents",
		Args:  exactArgs(0),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newAgentsListCmd(a), newAgentsShowCmd(a), newAgentsPruneCmd(a), newAgentsAddCmd(a))
	return cmd
}

// agentJSON is one agent in --json output.
type agentJSON struct {
	*registry.Registration `json:",omitempty"`
	Alive                  bool   `json:"alive"`
	Inbox                  string `json:"inbox,omitempty"`
	Waiting                int    `json:"waiting"`
	Acked                  int    `json:"acked"`
	Bad                    int    `json:"bad"`
	Registered             bool   `json:"registered"`
	// State is live, stopped (it registered once: its registration is
	// stale, or it unregistered and its inbox remembers it) or
	// never_registered (an inbox made ahead with "agents add").
	State string `json:"state"`
	// LastSession is the session that last owned the inbox of an agent
	// that stopped cleanly.
	LastSession string `json:"last_session,omitempty"`
}

// The states "agents show" tells apart.
const (
	agentLive            = "live"
	agentStopped         = "stopped"
	agentNeverRegistered = "never_registered"
)

func newAgentsListCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List live agents (dead registrations are pruned)",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !a.haveRoot() {
				if !a.json {
					a.printf("no live agents: there is no parley root at %s (%s makes one)\n", a.rootDir(), a.cmdLine("init"))
				}
				return nil
			}
			return a.withMessenger(func(m *messenger) error {
				live, err := m.reg.List(cmd.Context())
				if err != nil {
					return messengerError(err)
				}
				if a.json {
					for i := range live {
						if err := a.emit(agentJSON{Registration: &live[i].Registration, Alive: true, Registered: true, State: agentLive}); err != nil {
							return err
						}
					}
					return nil
				}
				if len(live) == 0 {
					a.printf("no live agents under %s\n", a.rootDir())
					return nil
				}
				tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
				if a.stdoutTTY() {
					fmt.Fprintln(tw, "NAME\tPID\tHOST\tROLES\tMODEL\tHEARTBEAT")
				}
				for _, e := range live {
					fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", e.Name, e.PID, shown(orDash(e.Host), false), shown(orDash(strings.Join(e.Roles, ",")), false),
						shown(orDash(e.Model), false), age(e.HeartbeatAt))
				}
				return tw.Flush()
			})
		},
	}
}

func newAgentsShowCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Show one agent: registration, liveness, inbox",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withAgent(args, func(m *messenger, name string) error {
				ctx := cmd.Context()
				out := agentJSON{}
				e, err := m.reg.Get(ctx, name)
				switch {
				case err == nil:
					out.Registration, out.Alive, out.Registered = &e.Registration, e.Alive, true
				case errors.Is(err, registry.ErrNotRegistered):
				default:
					return messengerError(err)
				}
				has, err := m.tr.Exists(ctx, name)
				if err != nil {
					return messengerError(err)
				}
				if !has && !out.Registered {
					return a.notFound(name)
				}
				switch {
				case out.Alive:
					out.State = agentLive
				case out.Registered:
					out.State = agentStopped
				default:
					out.State = agentNeverRegistered
					if o, ok := m.Backend.(app.OwnerReader); ok {
						owner, err := o.Owner(ctx, name)
						if err != nil {
							return messengerError(err)
						}
						if owner != "" {
							out.State, out.LastSession = agentStopped, owner
						}
					}
				}
				if has {
					out.Inbox = m.inboxLocation(name)
					if c, ok := m.Backend.(app.Counter); ok {
						if out.Waiting, out.Acked, out.Bad, err = c.Count(ctx, name); err != nil {
							return messengerError(err)
						}
					}
				}
				if a.json {
					return a.emit(out)
				}
				tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintf(tw, "name:\t%s\n", name)
				if out.Registered {
					status := "live"
					if !out.Alive {
						status = "stopped (its process is gone or its heartbeat is stale; 'agents prune' removes the registration)"
					}
					fmt.Fprintf(tw, "status:\t%s\n", status)
					fmt.Fprintf(tw, "pid:\t%d on %s\n", e.PID, shown(orDash(e.Host), false))
					fmt.Fprintf(tw, "session:\t%s\n", shown(e.SessionID, false))
					fmt.Fprintf(tw, "roles:\t%s\n", shown(orDash(strings.Join(e.Roles, ",")), false))
					fmt.Fprintf(tw, "model:\t%s\n", shown(orDash(e.Model), false))
					fmt.Fprintf(tw, "started:\t%s\n", shown(orDash(e.StartedAt), false))
					fmt.Fprintf(tw, "heartbeat:\t%s\n", age(e.HeartbeatAt))
				} else if out.State == agentStopped {
					fmt.Fprintf(tw, "status:\tstopped (it registered, then unregistered as it stopped)\n")
					fmt.Fprintf(tw, "last session:\t%s\n", shown(out.LastSession, false))
				} else {
					fmt.Fprintf(tw, "status:\tnever registered (its inbox was made ahead with 'agents add'; messages wait there for it)\n")
				}
				if has {
					fmt.Fprintf(tw, "inbox:\t%s\n", out.Inbox)
					if _, keeps := m.Backend.(app.Collector); keeps {
						fmt.Fprintf(tw, "messages:\t%d waiting, %d acknowledged (cur/), %d quarantined (bad/)\n", out.Waiting, out.Acked, out.Bad)
					} else {
						fmt.Fprintf(tw, "messages:\t%d waiting, %d dead-lettered (%s)\n", out.Waiting, out.Bad, jetstream.DeadSubject(name))
					}
				}
				return tw.Flush()
			})
		},
	}
}

func newAgentsPruneCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "prune",
		Short: "Remove the registrations of dead agents (their inboxes stay)",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withMessenger(func(m *messenger) error {
				pruned, err := m.reg.Prune(cmd.Context())
				if err != nil {
					return messengerError(err)
				}
				for _, n := range pruned {
					if a.json {
						if err := a.emit(map[string]any{"pruned": n}); err != nil {
							return err
						}
					} else {
						a.printf("pruned %s\n", n)
					}
				}
				if !a.json && len(pruned) == 0 {
					a.printf("no dead registrations\n")
				}
				return nil
			})
		},
	}
}

func newAgentsAddCmd(a *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "add NAME",
		Short: "Create the inbox of an agent that will come later",
		Long: "Create inbox/NAME so that messages can be sent to an agent before it runs.\n" +
			"The first session that registers NAME receives them.",
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := args[0]
			if err := validName("agent", name); err != nil {
				return err
			}
			m, err := a.openMessenger() // makes the root if it is new
			if err != nil {
				return err
			}
			defer m.Close()
			if err := m.tr.Create(cmd.Context(), name); err != nil {
				return messengerError(err)
			}
			dir := m.inboxLocation(name)
			if a.json {
				return a.emit(map[string]any{"agent": name, "inbox": dir})
			}
			a.printf("inbox of %s ready at %s\n", name, dir)
			return nil
		},
	}
}

// age renders an RFC 3339 time as "3s ago".
func age(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return "-"
	}
	return time.Since(t).Round(time.Second).String() + " ago"
}

// withAgent checks the NAME argument of an agents subcommand, then runs fn
// with the messenger open (see withMessenger).
func (a *factory) withAgent(args []string, fn func(m *messenger, name string) error) error {
	name := args[0]
	if err := validName("agent", name); err != nil {
		return err
	}
	return a.withMessenger(func(m *messenger) error { return fn(m, name) })
}

// withMessenger runs fn with the messenger open, and closes it after.
// It never creates a root: where there is none it says so.
func (a *factory) withMessenger(fn func(m *messenger) error) error {
	if !a.haveRoot() {
		return a.noRootError("")
	}
	m, err := a.openMessenger()
	if err != nil {
		return err
	}
	defer m.Close()
	return fn(m)
}
