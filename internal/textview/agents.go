package textview

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/parleyhq/parley/app"
	"github.com/parleyhq/parley/debate"
)

// agentField is a field another process wrote (its host, roles, model)
// as a table shows it: escaped (Shown), and "-" when empty.
func agentField(s string) string { return Shown(OrDash(s), false) }

// age renders an RFC 3339 time as "3s ago" at now, or "1h0m0s ahead of
// this clock" when it is later than now (a writer's clock ahead, a hand
// edit): never a negative age. "-" when it is not a time.
func age(ts string, now time.Time) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return "-"
	}
	d := now.Sub(t).Round(time.Second)
	if d < 0 {
		return (-d).String() + " ahead of this clock"
	}
	return d.String() + " ago"
}

// Agents writes a table of the live agents (name, pid, host, roles,
// model, heartbeat's age at now), with a header row when header is set; or
// that there are none in registry, where the registry listed is
// (app.AgentList.Registry).
func Agents(w io.Writer, live []app.Agent, header bool, now time.Time, registry string) error {
	if len(live) == 0 {
		_, err := fmt.Fprintf(w, "no live agents in %s\n", registry)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if header {
		fmt.Fprintln(tw, "NAME\tPID\tHOST\tROLES\tMODEL\tHEARTBEAT")
	}
	for _, e := range live {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", e.Name, e.PID, agentField(e.Host), agentField(strings.Join(e.Roles, ",")),
			agentField(e.Model), age(e.HeartbeatAt, now))
	}
	return tw.Flush()
}

// Agent writes what the messenger knows of agent name: its registration
// and liveness, or that it stopped or never registered; its inbox and the
// messages in it.
func Agent(w io.Writer, name string, ag *app.Agent, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "name:\t%s\n", name)
	switch {
	case ag.RegistrationError != "":
		fmt.Fprintf(tw, "status:\tstopped (its registration does not read, and a registration that does not read counts as not running: %s)\n", Shown(ag.RegistrationError, false))
	case ag.Registered:
		status := "live"
		if !ag.Alive {
			status = "stopped (its process is gone or its heartbeat is stale; 'agents prune' removes the registration)"
		}
		fmt.Fprintf(tw, "status:\t%s\n", status)
		fmt.Fprintf(tw, "pid:\t%d on %s\n", ag.PID, agentField(ag.Host))
		fmt.Fprintf(tw, "session:\t%s\n", Shown(ag.SessionID, false))
		fmt.Fprintf(tw, "roles:\t%s\n", agentField(strings.Join(ag.Roles, ",")))
		fmt.Fprintf(tw, "model:\t%s\n", agentField(ag.Model))
		fmt.Fprintf(tw, "started:\t%s\n", agentField(ag.StartedAt))
		fmt.Fprintf(tw, "heartbeat:\t%s\n", age(ag.HeartbeatAt, now))
	case ag.State == app.AgentStopped:
		fmt.Fprintf(tw, "status:\tstopped (it registered before; it unregistered as it stopped, or a dead registration was pruned)\n")
		fmt.Fprintf(tw, "last session:\t%s\n", Shown(ag.LastSession, false))
	default:
		fmt.Fprintf(tw, "status:\tnever registered, as far as parley knows (its inbox records no earlier holder: it was made ahead with 'agents add', or by another tool such as pi-messenger); messages wait there for it\n")
	}
	if ag.Inbox != "" {
		fmt.Fprintf(tw, "inbox:\t%s\n", ag.Inbox)
	}
	if ag.InboxCount != nil {
		fmt.Fprintf(tw, "messages:\t%s\n", ag.Summary)
	}
	return tw.Flush()
}

// AgentReady writes the line of an agent process that is listening, with
// how to stop it (interrupt.HowToStop: "Ctrl-C", or "kill PID" where
// Ctrl-C is ignored).
func AgentReady(w io.Writer, name string, role debate.Role, spec, stop string) error {
	_, err := fmt.Fprintf(w, "agent %s (%s, %s) is listening; stop it with %s\n", name, role, spec, stop)
	return err
}

// Pruned writes the agents whose registrations were removed, a line each,
// or that there were none.
func Pruned(w io.Writer, pruned []app.Pruned) error {
	p := &textOut{w: w}
	for _, n := range pruned {
		p.printf("pruned %s\n", n.Agent)
	}
	if len(pruned) == 0 {
		p.printf("no dead registrations\n")
	}
	return p.err
}
