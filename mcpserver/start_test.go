package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/app"
)

// starterchat is a chat provider that exists only in this test file.
func init() {
	agent.RegisterProvider("starterchat", agent.Provider{Client: func(string, agent.ChatSettings) (agent.ChatClient, error) {
		return nil, errors.New("starterchat answers nothing")
	}})
}

// debate_start over the service layer: the tool's own field names in
// every refusal, the HTTP restrictions for untrusted clients, and no
// debate written for a refused call.
func TestAppStarterRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	a := app.New(app.Options{Root: root})
	script := filepath.Join(dir, "s.json")
	os.WriteFile(script, []byte(concedingCritic), 0o600)
	zero, minus := 0, -1
	for _, c := range []struct {
		untrusted bool
		in        StartInput
		want      string
	}{
		{false, StartInput{Layer: "spec", Agents: []string{"attacker=@A", "defender=@B"}}, "missing topic"},
		{false, StartInput{Layer: "verification", Topic: "t", Agents: []string{"attacker=@A", "defender=@B"}}, `layer: unknown layer: "verification"`},
		{false, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender"}}, `agents "defender": use ROLE=SPEC`},
		{false, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender=@B\n"}}, `agents "defender=@B\n"`},
		{false, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender=@B"}, MaxRounds: &zero}, "max_rounds 0: must be positive"},
		{false, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender=@B"}, MaxTokensPerRound: &minus}, "max_tokens_per_round -1: must be positive"},
		{false, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender=@B"}, Timeout: "200h"}, `timeout "200h": at most 168h0m0s, a week`},
		{false, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender=@B"}, Timeout: "-5s"}, `timeout "-5s": at least 1ms`},
		{false, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender=@B"}, Timeout: "soon"}, `timeout "soon": want a duration`},
		{false, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender=@B"}, Context: []string{filepath.Join(dir, "none")}}, "context: open"},
		{false, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender=@B"}}, "agent A is not running: join it first with debate_join"},
		{true, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=script:" + script, "defender=@B"}}, "script: agents are refused over HTTP"},
		{true, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=exec:rm -rf ~", "defender=@B"}}, "exec: agents are refused over HTTP"},
		{true, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=@A", "defender=@B"}, Workspace: "/"}, "a workspace are refused over HTTP"},
		// A chat provider runs nothing local: like openai, it passes the HTTP
		// restriction (and the call fails later, on the @B that is not running).
		{true, StartInput{Layer: "spec", Topic: "t", Agents: []string{"attacker=starterchat:m", "defender=@B"}}, "agent B is not running"},
	} {
		out, err := AppStarter(a, c.untrusted).StartDebate(context.Background(), c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %+v %v; want an error saying %q", c.in, out, err, c.want)
		}
		for _, flag := range []string{"--layer", "--topic", "--agent", "--context", "--workspace", "--max-", "--timeout", "debate run", "maxRounds", "maxTokens", "maxWallClockMs", "convergenceRounds"} {
			if err != nil && strings.Contains(err.Error(), flag) {
				t.Errorf("%+v: %q names %s, not one of the tool's arguments", c.in, err, flag)
			}
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "debates")); len(ents) != 0 {
		t.Errorf("refused calls left %d debate(s)", len(ents))
	}
}
