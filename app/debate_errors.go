package app

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/internal/termsafe"
	"github.com/parleyhq/parley/transcripts"
)

// ProblemTampered: a debate's files disagree with its transcript or its
// seal, so it is not continued (a front end reports it as blocked, not as
// a failure).
const ProblemTampered Problem = "tampered"

// ExplainDebate is the error of a call about debate id (run, resume,
// watch, status, start) in words that say what to do: an *Error, or, when
// err is none of the debate's own, err as Explain has it (the messenger's
// errors explained, any other as it is; nil for nil). The commands it
// suggests are named in braces, "{parley debate resume ID}", for each
// front end to word as it runs them (see Error.Format). A Ctrl-C is
// ProblemInterrupted; a debate that cannot be continued, ProblemTampered;
// no such debate, ProblemNotFound.
func (a *App) ExplainDebate(err error, id string) error {
	var (
		te  *transcripts.TamperError
		td  *TamperedError
		se  *StoppedError
		nc  *NotClosedError
		sto *debate.StorageError
		nr  *NotRunningError
		fa  *ForeignAgentError
		re  *RoleError
	)
	resume := "{parley debate resume " + id + "}"
	switch {
	case err == nil:
		return nil
	case errors.As(err, &nr) && nr.NoRoot != "":
		return newError(ProblemNotActive, "", err, "%v (give the --root it runs under, or start it there with {parley agent run} --name %s …)", err, nr.Agent)
	case errors.As(err, &nr):
		return newError(ProblemNotActive, "", err, "%v (see {parley agents list}, or start it with {parley agent run} --name %s …)", err, nr.Agent)
	case errors.As(err, &re):
		return newError(ProblemWrongRole, "", err, "%v: name it %s=@%s, or an agent that joined as %s (see {parley agents list})", err, re.Joined[0], re.Agent, re.Asked)
	case errors.As(err, &fa):
		return newError(ProblemTaken, "", err, "%v (see {parley agents show} %s)", err, fa.Agent)
	case errors.As(err, &td):
		return newError(ProblemTampered, "", err, "debate %s was tampered with, resume refuses to continue it: %s (see {parley transcripts verify "+id+"})",
			id, termsafe.Clean(td.Trouble, ""))
	case errors.As(err, &se) && errors.Is(err, context.Canceled):
		return newError(ProblemInterrupted, "", err, "interrupted; the debate can go on with: "+resume)
	case errors.As(err, &nc):
		return newError(ProblemNotActive, "", err, "debate %s recorded its verdict, %s, but stopped before closing: its verdict is not filed and sealed yet (its logs: %s): "+resume+" finishes closing it",
			id, nc.Verdict, filepath.Join(a.root, filepath.FromSlash(transcripts.Path(id, transcripts.LogsDir))))
	case errors.As(err, &se) && errors.As(err, &sto):
		// Its own words, with the resume command as this front end
		// names it, said once.
		return newError(ProblemMessenger, "", err, "%s; free space or fix the disk, then run "+resume, sto.What())
	case errors.As(err, &sto) && sto.NotOpened:
		// It says what to do: nothing was kept to resume.
		return newError(ProblemMessenger, "", err, "%v", err)
	case errors.As(err, &se) && errors.Is(err, ErrNotRunning):
		return newError(ProblemNotActive, "", err, "debate %s is not running and has no verdict (its logs: %s): "+resume+" continues it",
			id, filepath.Join(a.root, filepath.FromSlash(transcripts.Path(id, transcripts.LogsDir))))
	case errors.As(err, &se):
		return newError(ProblemMessenger, "", err, "%v ("+resume+" continues it)", err)
	case errors.Is(err, transcripts.ErrBusy):
		return newError(ProblemTaken, "", err, "debate %s is running in another process (follow it with {parley debate watch "+id+"})", id)
	case errors.Is(err, transcripts.ErrNotFound):
		return newError(ProblemNotFound, "", err, "no debate %s ({parley debate list} lists them)", id)
	case errors.As(err, &te):
		return newError(ProblemTampered, "", err, "%v; it cannot be resumed ({parley transcripts verify "+id+"})", err)
	}
	return Explain(err)
}
