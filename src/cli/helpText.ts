/** The complete `task-planner --help` text. */
export const helpText = `task-planner: plan, validate, run and resume Task Planner plans from a terminal.

Usage:
  task-planner plan "<request>" [--model-critique] [--investigate-calls N]
                    [--investigate-tokens N] [--investigate-seconds N]
                    [--answer Qn=TEXT] [run options]
  task-planner validate <plan.json | tasks file> [--workspace DIR] [--json] [MCP options]
  task-planner run <plan.json | tasks file> [--tick] [run options]
  task-planner import <tasks file> [--format F] [--out plan.json] [--base-url URL --model M]
  task-planner export <plan.json | tasks.md> --format F [--out FILE] [--run RUN] [--workspace DIR]
  task-planner resume <runId> [run options]
                     [--approve STEP] [--reject STEP[=REASON]] [--answer STEP=TEXT]
                     [--accept-review STEP[=NOTES]] [--reject-review STEP[=NOTES]]
                     [--done STEP[=NOTE]] [--failed STEP=REASON]
  task-planner rerun <runId> --from STEP [run options]
  task-planner runs [--workspace DIR] [--json]
  task-planner trace <runId> [--trace FILE] [--json] [--trace-endpoint URL] [--trace-content] [--workspace DIR]
  task-planner undo <runId> [--from STEP] [--workspace DIR] [--json]
  task-planner tools [--workspace DIR] [--json] [MCP options]
  task-planner --help | --version

Commands:
  plan       Turn a request into a plan with a language model (the heuristic planner when
             no model is configured), show it with its critique, ask to start (or start with
             --yes), then execute it like "run", repairing failed steps with the model.
  validate   Parse the plan (forgiving: fences, trailing commas, aliases), or a tasks file
             as "run" reads it, then print every
             validation diagnostic and the critique with its score. With --workspace, the
             skills steps name are checked against that workspace's skills too.
  run        Execute the plan against the workspace. Steps run as soon as their dependencies
             are done (up to --concurrency at once). Progress goes to stderr. With a model,
             a step whose failure policy is "replan" gets a repair plan for the rest.
             A tasks file of another tool runs as the plan "import" makes of it, its
             format told by its name and content (run takes no --format: to choose one,
             import --format F --out plan.json, then run plan.json); with
             --tick each task's checkbox is ticked in the file (inside the workspace) as
             its step completes, a file change asked like any other (without a
             terminal, add --allow-file-changes or --yes).
  import     Read another tool's task list as a plan and print it as JSON (or write it to
             --out); what came from which line goes to stderr. Formats (--format, else
             told by the file's name and content): speckit (Spec Kit tasks.md: phases,
             T001, [P] in parallel, [US1] stories), kiro (.kiro/specs/*/tasks.md: numbered
             tasks, sub-tasks, _Requirements:_), cursor (.cursor/plans/*.plan.md: todos and
             their dependencies), copilot (plan-*.prompt.md: ## Plan:, ### Steps), checklist
             (any Markdown "- [ ]" list). Tasks run in the file's order, [P] ones together;
             ticked ones are skipped as done; the files a task names are the files its step
             may change. With a model the steps are agents', else yours to do. Lines that
             are no task stay in the objective as written.
  export     Write a plan file (or a task file, read as run reads it) as a task list of --format
             (one of the formats above); import reads it back with the same steps, order,
             dependencies and ticks. With --run RUN (a run of that plan or task file in the
             workspace, with --tick or not) the steps it completed are ticked.
  resume     Continue a run from its journal: completed steps are not re-run; steps that were
             running or waiting start again, with the answers given here. Repairs like run.
  rerun      Run from here: start a new run of an ended run's plan that keeps the results
             of the steps not depending on --from STEP, so that step and every step after
             it on its dependencies run again (as "run": approvals, --yes, model). Refused
             while the run waits or was cut off: resume it, or undo it and run the plan.
             Typically after "undo <runId> --from STEP".
  runs       List the runs journaled in the workspace, newest first, with their status
             (a run whose process was killed reads "interrupted": resume it).
  trace      Print a run's trace from its journal as a timed tree: the run, each step's
             attempts, and in them the model calls (model, tokens, cached tokens) and tool
             calls. --trace FILE writes it as JSON lines (one span a line; --json prints
             those); --trace-endpoint sends it too. The tree shows the plan's step ids;
             the lines and what is sent name steps S1, S2... unless --trace-content.
  undo       Put back the files a run changed, newest change first; a file changed since
             is left alone and named (exit 1). With --from STEP, only that step, the steps
             that depend on it and those that changed its files after it. Twice: nothing.
  tools      List every tool a plan may use, with its source (builtin, or the MCP server
             that runs it) and effect, then the MCP servers and their state.

Run options: [--workspace DIR] [--concurrency N] [--yes] [--json] [--base-url URL]
             [--model M] [--planner-model M] [--agent-model M] [--reviewer-model M]
             [--compaction-model M] [--timeout SECONDS] [--allow-insecure-key] [--strategy S]
             [--max-requests N] [--max-tokens N] [--max-cost USD] [--budget-from-estimate]
             [--allow-hard-links]
             [--max-replans N] [--max-replan-attempts N] [--replan-cooldown SECONDS]
             [--review-critical-steps] [--allow-command RULE]... [--allow-file-changes]
             [--trace-endpoint URL] [--trace-content] [MCP options]
MCP options: [--mcp-config FILE] [--mcp-timeout SECONDS] [--yes]

Options:
  --workspace DIR     Workspace root the tools act on (default: the current directory).
                      Journals live in DIR/.task-planner/runs/.
  --concurrency N     Steps running at once (default 4).
  --base-url URL      OpenAI-compatible API root (default https://api.openai.com/v1 when a
                      key is set; a local server such as http://127.0.0.1:11434/v1 needs none).
  --model M           Model name (default gpt-4o-mini). With a key or --base-url, agent
                      steps and synthesis gates run on this model in "run" and "resume" too.
  --planner-model M, --agent-model M, --reviewer-model M, --compaction-model M
                      The model that writes (and repairs) plans, runs agent steps and
                      gates, reviews results, condenses the run's summary: on the same
                      server as --model, which each defaults to. A step's own "model" in a
                      plan file must be one of these.
  --timeout SECONDS   Time limit of one model request, in seconds, its whole reply included
                      (default 120; a streamed reply also ends after 60 s without a chunk).
                      A request that times out is retried, at most 4 attempts in all.
  --allow-insecure-key
                      Send the API key even over plain http:// to another machine (refused
                      by default: anyone on the way could read it). http to this machine
                      (localhost, 127.0.0.1) and https need no flag.
  --max-requests N, --max-tokens N, --max-cost USD
                      The run's LLM budget. When a limit is reached the run stops "waiting"
                      before the next model call; resume it with higher limits to continue.
  --budget-from-estimate
                      Before a run starts, "plan" and "run" show its estimate (model
                      requests, tokens, cost from the model prices, time); with this flag
                      the run stops at the estimate's high end (its cost, or its tokens when
                      a price is unknown) unless --max-cost / --max-tokens says otherwise.
                      The run's summary shows what it used beside the estimate.
  --max-replans N     Repair plans per run, in all (default 3; 0 turns replanning off).
  --max-replan-attempts N
                      Repair plans asked for because of the same step (default 2).
  --replan-cooldown SECONDS
                      Wait before each repair plan is asked for (default 0).
  --strategy S        Planning strategy: react (default), plan_act_reflect,
                      goal_decompose_route_synthesise. The model plans with it ("plan") and
                      the agents of agent steps work by it ("plan", "run", "resume").
  --investigate-calls N, --investigate-tokens N, --investigate-seconds N
                      "plan" with a model: before writing the plan the model may read the
                      workspace (read, list, search, symbols, problems; nothing that writes,
                      runs or goes online) and ask you questions, within these bounds
                      (defaults 20 tool calls, 60000 tokens, 90 s; --investigate-calls 0
                      plans without looking). Each thing read is named on stderr; the
                      first Ctrl+C plans with what was read, the next one cancels. Its
                      questions are numbered Q1, Q2…: answered by --answer Qn=TEXT, else
                      on a terminal, else with --yes by the first suggestion, else left
                      to the model, which says in the plan what it chose.
  --model-critique    "plan": a model reviews the plan too; its findings are listed with
                      the static critic's, marked "model", with the tokens it took. Without
                      an answer within 60 s the static findings stand alone.
  --yes, -y           Approve every file change, command and MCP tool call without asking
                      (a change outside the files its step said it would change too;
                      --allow-file-changes leaves that one asking) ("plan": also start
                      the plan without asking), and start the
                      workspace's MCP servers ("validate", "tools": only that).
  --allow-command RULE
                      A command that runs without asking: its words ("npm test"), or a JSON
                      array of them; a last word "..." allows further arguments, except those
                      that write files, read configuration or run another program. Repeat for
                      more rules. A rule that would allow any code ("node", "bash -c") is refused.
                      A rule allows words, not what they run: "npm test" and "make" run what
                      the workspace's package.json and Makefile say (a repository's scripts
                      are its own code), so allow them only in a project you trust.
  --allow-file-changes
                      File changes are made without asking, except outside the files a step
                      said it would change. Without a terminal, anything else that would ask
                      makes the run stop "waiting" and say what it wanted.
  --trace-endpoint URL
                      Send the run's trace (OpenTelemetry, OTLP/HTTP, GenAI conventions) to
                      this collector when the run ends (http://127.0.0.1:4318 means
                      .../v1/traces). Off without it. It holds kinds, statuses, times, model
                      names, token counts, built-in tool names, and steps by their place in
                      the plan (S1, S2...): no prompt, objective, title, step id, agent or
                      other tool name, input, result or file content unless --trace-content
                      is given too.
  --json              Print the result as JSON on stdout (progress stays on stderr).
  --allow-hard-links  Let tools read and change files with more than one hard link (refused
                      by default: a hard link can bring a file from outside the workspace in).
  --review-critical-steps
                      After a critical agent step passes its verification, a separate model
                      call reviews its result against its input; a failed review is a failed
                      verification (retried with the diagnosis). One more model call per
                      such step, counted in the budget. A step's own "review" field wins.
  --mcp-config FILE   MCP servers of yours, in VS Code's .vscode/mcp.json format ("servers",
                      "inputs"), started without asking (without a "cwd", in an empty
                      folder of yours, not the workspace, whose files could be what
                      python -m or npx runs); their "allowedTools" ("*" or tool
                      names) are called without asking. The workspace's own
                      .vscode/mcp.json is read too: its servers start only with --yes or
                      when you say yes on the terminal (they run programs), and it cannot
                      allow tools. Each MCP tool is named mcp__<server>__<tool>; every call
                      asks for approval (like a command) unless allowed.
  --mcp-timeout SECONDS
                      Longest wait for an MCP server to start and for one tool call
                      (default 60); a server that stops or does not answer fails its step
                      with its name and the end of its stderr.
  --approve STEP      Approve STEP's pending change or command (resume).
  --reject STEP[=REASON]
                      Reject STEP's pending change or command (resume); the step is skipped.
                      With =REASON, the step's agent is told the reason and proposes again,
                      up to the step's attempts (at the prompt: answer f).
  --answer STEP=TEXT  Answer STEP's pending question (resume).
  --accept-review STEP[=NOTES], --reject-review STEP[=NOTES]
                      Decide STEP's pending review, with optional notes (resume).
  --done STEP[=NOTE]  You did STEP, a step that is yours to do; the note becomes its
                      result (resume).
  --failed STEP=REASON
                      You could not do STEP; it fails with the reason (resume).
                      In these answers, STEP is the request id printed with the waiting run (such as
                      S1@3fa9c2d1e0b7) or a step id. An answer applies only to the exact
                      request it was given for (the same diff, command line or question):
                      if the resumed step asks anything else, it is asked again.
  --help, -h          Show this help.   --version  Show the version.

Environment:
  OPENAI_API_KEY, else TASK_PLANNER_API_KEY: the API key of the model (never printed).
  Without a key and without --base-url, "plan" uses the heuristic planner.
  TASK_PLANNER_MCP_INPUT_<ID>: the value of an MCP configuration's \${input:<id>} (ID in
  upper case, other characters as "_"); a password input is read from there only. A
  workspace's own mcp.json gets it only after a question naming the variable (or --yes).
  MCP servers started as programs do not inherit credentials from this environment
  (variables named like keys, tokens or passwords); give them in the server's "env".

Interaction:
  On a terminal, approvals, questions and reviews are asked interactively, and a step
  that is yours to do asks "Done? [y]es / [n]o (failed) / [l]ater". Without a terminal
  (or when you answer "d" to defer, "l" for later, or press Enter alone), the run stops with
  status "waiting" and prints its pending requests; answer them with "resume".

Text that starts with "-":
  A request or answer that starts with "-" followed by a space (a list: "- bump the
  version\\n- run npm test") is text, not an option. Other text that starts with "-":
  put "--" before it, after every option: task-planner plan --workspace DIR -- "-x first".

Exit codes:
  0 completed: every step done (or skipped as planned: in the plan, or by its condition)
    (validate: no errors)
  1 failed: a critical step halted the run, or a step failed for good (it asked for a
    repair plan, or you marked your step failed) (validate: errors)
  2 usage or input error (an invalid plan, a missing workspace: nothing was started)
  3 waiting for answers or budget
  4 cancelled or interrupted (Ctrl+C, SIGTERM, a closed terminal; resume it later)
  5 partial: the run went to its end, but steps failed (their failure policy went on) or
    were skipped (you rejected them, or a step before them did not complete)
  70 stopped before the command finished, with nothing left to wait on: a bug (never 0)
`;
