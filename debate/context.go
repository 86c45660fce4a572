package debate

import (
	"errors"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/inbox"
)

// MaxContextRequestBytes bounds what a session's context adds to each turn
// request once encoded: three quarters of inbox.MaxMessageBytes, the rest
// being left for the prompt and the transcript so far. A request carries
// the context twice (its context field and the Markdown prompt of its
// text), both as JSON strings, where a newline takes two bytes and each of
// <, > and & six: a plain 256 KiB document adds about 520 KiB.
const MaxContextRequestBytes = inbox.MaxMessageBytes / 4 * 3

// ErrContextTooLarge means a session's context adds more than
// MaxContextRequestBytes to a turn request: no agent could be handed it.
var ErrContextTooLarge = errors.New("the context is too large to hand to the agents")

// ContextRequestBytes is what s's context adds to a turn request once
// encoded: the request of round 1 to its first speaker, with the context
// and without it, both encoded as inbox.Message.Encode encodes them.
func ContextRequestBytes(s *DebateSession) (int, error) {
	if len(s.Context) == 0 {
		return 0, nil
	}
	order := s.Order()
	if len(order) == 0 {
		return 0, fmt.Errorf("%w: a debate needs participants", ErrInvalidSession)
	}
	req := &TurnRequest{
		DebateID: s.ID, RequestID: RequestID(s.ID, 1, order[0], 1), Round: 1, Role: order[0].Role,
		Topic: s.Topic, Layer: s.Layer, Scope: s.Scope, Position: s.OpeningPosition(), Transcript: []TurnRecord{},
		Budget: TurnBudget{TokensThisTurn: s.Budget.MaxTokensPerRound}, Attempt: 1, MaxRounds: s.Budget.MaxRounds,
	}
	size := func(c []ContextItem) (int, error) {
		req.Context = c
		text, err := json.Marshal(renderRequest(req, s.Coordinator))
		if err != nil {
			return 0, err
		}
		field, err := json.Marshal(c)
		if err != nil {
			return 0, err
		}
		return len(text) + len(field), nil
	}
	with, err := size(s.Context)
	if err != nil {
		return 0, err
	}
	without, err := size([]ContextItem{})
	if err != nil {
		return 0, err
	}
	return with - without, nil
}

// CheckContext refuses, with ErrContextTooLarge, a session whose context
// adds more than MaxContextRequestBytes to a turn request. A coordinator
// that cannot send a request with its context sends it without (the debate
// goes on): a debate that could not hand its agents the document it
// debates from its first turn on is refused before it opens instead.
func (s *DebateSession) CheckContext() error {
	n, err := ContextRequestBytes(s)
	if err != nil {
		return err
	}
	if n > MaxContextRequestBytes {
		return fmt.Errorf("%w: it adds %d bytes to each turn request once encoded (the request carries it twice, in its fields and in its text, JSON-escaped: a newline takes 2 bytes, each <, > and & 6), over the %d a request has for it; hand the debate fewer or shorter files",
			ErrContextTooLarge, n, MaxContextRequestBytes)
	}
	return nil
}
