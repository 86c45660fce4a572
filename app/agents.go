package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
	"time"

	"github.com/parleyhq/parley/consensus"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/inbox"
	"github.com/parleyhq/parley/internal/durable"
	"github.com/parleyhq/parley/internal/suggest"
	"github.com/parleyhq/parley/registry"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vault"
)

// The states of an agent (Agent.State).
const (
	// AgentLive: registered, and its heartbeat is fresh.
	AgentLive = "live"
	// AgentStopped: it registered once: its registration is stale, or it
	// unregistered and its inbox remembers it.
	AgentStopped = "stopped"
	// AgentNeverRegistered: no registration, and an inbox that records no
	// earlier holder: made ahead (AddAgent), or by another tool
	// (pi-messenger, whose agents record none).
	AgentNeverRegistered = "never_registered"
)

// Agent is what the messenger knows of one agent; its JSON form is what
// "parley --json agents list|show" prints.
type Agent struct {
	// Name is the agent's name, whatever its state: an agent without a
	// registration (stopped, never registered) has no Registration to
	// carry it. It hides Registration.Name, which is the same.
	Name                   string `json:"name"`
	*registry.Registration `json:",omitempty"`
	Alive                  bool `json:"alive"`
	// Inbox says where its inbox is (Backend.Location); "" when it has none.
	Inbox string `json:"inbox,omitempty"`
	// InboxCount is what its inbox holds, when it was counted (Agent
	// counts, on a backend that can; LiveAgents does not): nil, and no
	// counts in the JSON form, otherwise.
	*InboxCount
	Registered bool `json:"registered"`
	// State is AgentLive, AgentStopped or AgentNeverRegistered.
	State string `json:"state"`
	// LastSession is the session that last held the inbox of an agent
	// that stopped cleanly.
	LastSession string `json:"last_session,omitempty"`
	// RegistrationError says why its registration does not read (a torn
	// or hand-edited file, a directory in its place): such a registration
	// is not alive, so the agent is AgentStopped, with no Registration.
	RegistrationError string `json:"registration_error,omitempty"`
}

// AgentList is what LiveAgents found.
type AgentList struct {
	// Live are the live agents, sorted by name.
	Live []Agent
	// Registry says where the registry that was listed is
	// (Backend.RegistryLocation): a directory, a bucket on a server.
	Registry string
}

// LiveAgents lists the live agents (the registry drops dead ones as it
// lists), and says where it looked. It reads the registry only: their
// inboxes are not counted (InboxCount is nil; Agent counts one). With no
// root there are none, and ErrNoRoot says so.
func (a *App) LiveAgents(ctx context.Context) (*AgentList, error) {
	out := &AgentList{}
	err := a.withMessenger(ctx, "", func(b Backend) error {
		out.Registry = b.RegistryLocation()
		live, err := b.Registry().List(ctx)
		for i := range live {
			out.Live = append(out.Live, Agent{Name: live[i].Name, Registration: &live[i].Registration, Alive: true, Registered: true, State: AgentLive})
		}
		return Explain(err)
	})
	return out, err
}

// Agent says what the messenger knows of name: its registration, whether
// it runs, its inbox. Neither an inbox nor a registration is
// ProblemNotFound.
func (a *App) Agent(ctx context.Context, name string) (*Agent, error) {
	if err := ValidName("agent", name); err != nil {
		return nil, err
	}
	out := &Agent{Name: name}
	err := a.withMessenger(ctx, name, func(b Backend) error {
		e, err := b.Registry().Get(ctx, name)
		switch {
		case err == nil:
			out.Registration, out.Alive, out.Registered = &e.Registration, e.Alive, true
		case errors.Is(err, registry.ErrMalformed):
			// Not alive, as the registry judges it; said, not fatal.
			out.Registered, out.RegistrationError = true, err.Error()
		case !errors.Is(err, registry.ErrNotRegistered):
			return Explain(err)
		}
		has, err := b.Transport().Exists(ctx, name)
		if err != nil {
			return Explain(err)
		}
		if !has && !out.Registered {
			return UnknownAgentNear(ctx, b.Transport(), b.Registry(), name)
		}
		switch {
		case out.Alive:
			out.State = AgentLive
		case out.Registered:
			out.State = AgentStopped
		default:
			out.State = AgentNeverRegistered
			if o, ok := b.(OwnerReader); ok {
				owner, err := o.Owner(ctx, name)
				if err != nil {
					return Explain(err)
				}
				if owner != "" {
					out.State, out.LastSession = AgentStopped, owner
				}
			}
		}
		if !has {
			return nil
		}
		out.Inbox = b.Location(name)
		if c, ok := b.(Counter); ok {
			n, err := c.Count(ctx, name)
			if err != nil {
				return Explain(err)
			}
			out.InboxCount = &n
		}
		return nil
	})
	return out, err
}

// Added is what AddAgent did: where the inbox is, and what the caller
// should know of the name (WarnOtherCase).
type Added struct {
	Inbox    string
	Warnings []Warning
}

// AddAgent makes the inbox of an agent that will come later (and the root,
// if it is new), so that messages can wait for it; the first session that
// registers name receives them. It returns where the inbox is, with a
// WarnOtherCase warning when a known agent's name differs from name only
// in case ("bob" beside "Bob"): names are case-sensitive, so that is
// another agent, which is more often a slip than meant.
func (a *App) AddAgent(ctx context.Context, name string) (Added, error) {
	if err := ValidName("agent", name); err != nil {
		return Added{}, err
	}
	b, err := a.Messenger(ctx)
	if err != nil {
		return Added{}, err
	}
	defer b.Close()
	var twins []string
	for _, n := range knownAgents(ctx, b.Transport(), b.Registry()) {
		if n != name && strings.EqualFold(n, name) {
			twins = append(twins, n)
		}
	}
	if err := b.Transport().Create(ctx, name); err != nil {
		return Added{}, Explain(err)
	}
	out := Added{Inbox: b.Location(name)}
	if len(twins) > 0 {
		quoted := make([]string, len(twins))
		for i, n := range twins {
			quoted[i] = suggest.Quote(n)
		}
		known := "an agent named " + quoted[0] + " exists"
		if len(twins) > 1 {
			known = "agents named " + strings.Join(quoted, ", ") + " exist"
		}
		out.Warnings = append(out.Warnings, Warning{Code: WarnOtherCase, Agent: name,
			Text: fmt.Sprintf("%s: %s is another agent, with an inbox of its own (names are case-sensitive)", known, name)})
	}
	return out, nil
}

// Pruned is an agent whose registration Prune removed: what "agents prune
// --json" prints, one line each.
type Pruned struct {
	Agent string `json:"pruned"`
}

// Prune removes the registrations of dead agents (their inboxes stay) and
// returns them. One it cannot remove does not stop it: it stays, and is a
// WarnNotRemoved warning.
func (a *App) Prune(ctx context.Context) ([]Pruned, []Warning, error) {
	var pruned []Pruned
	var warnings []Warning
	err := a.withMessenger(ctx, "", func(b Backend) error {
		names, ws, err := prune(ctx, b.Registry())
		for _, n := range names {
			pruned = append(pruned, Pruned{Agent: n})
		}
		warnings = ws
		return err
	})
	return pruned, warnings, err
}

// Collected is what a collection removed.
type Collected struct {
	// Acked counts the acknowledged messages removed.
	Acked int `json:"acked_removed"`
	// Staging counts the leftovers of writers that crashed or failed
	// removed: staging files, and the sender marks of the inboxes that no
	// waiting message needs (a failed send's).
	Staging int `json:"staging_removed"`
	// Pruned names the dead registrations removed.
	Pruned []string `json:"registrations_pruned"`
	// RegistrationsOnly is set when the messenger keeps no acknowledged
	// messages or staging files to collect (NATS: an acknowledged message
	// leaves the stream at once), so only registrations were pruned, and
	// the staging files of the debates and the vault removed.
	RegistrationsOnly bool `json:"-"`
	// Warnings are the dead registrations that could not be removed
	// (WarnNotRemoved), for the front end to show as it shows warnings.
	Warnings []Warning `json:"-"`
}

// Collect removes messages acknowledged more than olderThan ago and stale
// staging files (where the backend keeps them: a Collector), the stale
// staging files of the debates and the vault (removeStaleStaging), and the
// registrations of dead agents (one that cannot be removed is a warning,
// as for Prune). Waiting messages, quarantined ones and mail moved aside
// are never removed.
func (a *App) Collect(ctx context.Context, olderThan time.Duration) (Collected, error) {
	out := Collected{Pruned: []string{}}
	err := a.withMessenger(ctx, "", func(b Backend) error {
		// Over NATS an acknowledged message leaves the stream at once:
		// only a backend that keeps them collects.
		c, ok := b.(Collector)
		out.RegistrationsOnly = !ok
		if ok {
			st, err := c.Collect(ctx, olderThan, time.Now())
			out.Acked, out.Staging = st.Acked, st.Staging+st.Marks
			ws, err := notCollected(err)
			if err != nil {
				return Explain(err)
			}
			out.Warnings = ws
		}
		n, ws := a.removeStaleStaging(ctx, time.Now())
		out.Staging += n
		out.Warnings = append(out.Warnings, ws...)
		pruned, ws, err := prune(ctx, b.Registry())
		if len(pruned) > 0 {
			out.Pruned = pruned
		}
		out.Warnings = append(out.Warnings, ws...)
		return err
	})
	return out, err
}

// removeStaleStaging removes the staging files writers killed mid-write
// left beside the debates (debates/<id>/), in the gate's folder (a model
// "gate learn" was installing) and in the vault folders parley writes
// pages in (durable.RemoveStale: the exact staging names, older
// than durable.StaleStaging, regular files only), whatever the messenger.
// What it cannot remove is a WarnNotRemoved warning; a missing vault or
// folder is nothing to remove.
func (a *App) removeStaleStaging(ctx context.Context, now time.Time) (int, []Warning) {
	n := 0
	var ws []Warning
	notRemoved := func(where string, err error) {
		ws = append(ws, Warning{Code: WarnNotRemoved, Text: fmt.Sprintf("a stale staging file %s stays: %v", where, err)})
	}
	if st, err := transcripts.OpenStore(a.root, a.log); err == nil {
		m, err := st.RemoveStaleStaging(ctx, now)
		n += m
		if err != nil {
			notRemoved("of the debates", err)
		}
		st.Close()
	}
	if r, err := os.OpenRoot(a.root); err == nil {
		m, err := durable.RemoveStaleMatching(r, gating.LabelDir, now.Add(-durable.StaleStaging), isGateLeftover)
		n += m
		if err != nil {
			notRemoved("of the gate", err)
		}
		r.Close()
	}
	if v, err := vault.Open(a.vault); err == nil {
		for _, dir := range []string{consensus.Folder, transcripts.PageFolder} {
			m, err := v.RemoveStaleStaging(dir, now)
			n += m
			if err != nil {
				notRemoved("of the vault", err)
			}
		}
		v.Close()
	}
	return n, ws
}

// isGateLeftover says whether a file of the gate's folder is what a writer
// killed mid-write left there: internal/durable's staging files, and the
// temporary files of the model that renameio made when gate learn
// installed it through renameio (.model.json<digits>).
func isGateLeftover(name string) bool {
	return durable.IsStagingName(name) || durable.IsLegacyStagingName(name, path.Base(gating.ModelName))
}

// notCollected turns the folders and files a collection could not clean
// (each an *inbox.DeliveryError or a *registry.PathError of op "gc": the
// rest was collected) into WarnNotRemoved warnings, as prune does for dead
// registrations; any other failure stays an error.
func notCollected(err error) ([]Warning, error) {
	if err == nil {
		return nil, nil
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var ws []Warning
	for _, e := range errs {
		var de *inbox.DeliveryError
		var pe *registry.PathError
		switch {
		case errors.As(e, &de) && de.Op == "gc":
			ws = append(ws, Warning{Code: WarnNotRemoved, Agent: de.Agent, Text: fmt.Sprintf("old files of %s's inbox stay: %v", de.Agent, e)})
		case errors.As(e, &pe) && pe.Op == "gc":
			ws = append(ws, Warning{Code: WarnNotRemoved, Text: fmt.Sprintf("a stale staging file of the registry stays: %v", e)})
		default:
			return nil, err
		}
	}
	return ws, nil
}

// prune is the registry's Prune with what it could not remove (a
// *registry.PruneError) turned into WarnNotRemoved warnings; any other
// failure is an error.
func prune(ctx context.Context, reg Registry) ([]string, []Warning, error) {
	names, err := reg.Prune(ctx)
	var pe *registry.PruneError
	if !errors.As(err, &pe) {
		return names, nil, Explain(err)
	}
	ws := make([]Warning, 0, len(pe.Errs))
	for _, e := range pe.Errs {
		w := Warning{Code: WarnNotRemoved, Text: fmt.Sprintf("a dead registration stays: %v", e)}
		var p *registry.PathError
		if errors.As(e, &p) {
			w.Agent = p.Name
			w.Text = fmt.Sprintf("the dead registration of %s stays: %v", p.Name, e)
		}
		ws = append(ws, w)
	}
	return names, ws, nil
}

// withMessenger runs fn with the configured messenger open, and closes it
// after. It never creates a root: where there is none it returns the
// not_found of agent (ErrNoRoot).
func (a *App) withMessenger(ctx context.Context, agent string, fn func(Backend) error) error {
	if !a.HaveRoot() {
		return a.noRoot(agent)
	}
	b, err := a.Messenger(ctx)
	if err != nil {
		return err
	}
	defer b.Close()
	return fn(b)
}
