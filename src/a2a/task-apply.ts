/**
 * Pure updates of a Task by one event: status moves (checked against the lifecycle), history appends, and artifact
 * reassembly (A2A 1.0 §3.1.6 TaskArtifactUpdateEvent: `append` concatenates parts onto the artifact with the same
 * artifactId, otherwise the artifact is added or replaced) so that GetTask shows one artifact per artifactId.
 */
import { invalidAgentResponse } from './errors.ts';
import { a2aArtifactPartsMax, a2aArtifactsMax, a2aHistoryMessagesMax } from './limits.ts';
import { canTransition } from './state-machine.ts';
import type { Artifact, Message, Task, TaskArtifactUpdateEvent, TaskStatus } from './types.ts';

export function appendHistory(task: Task, message: Message): Task {
  const history = [...(task.history ?? []), message];
  return { ...task, history: history.length > a2aHistoryMessagesMax ? history.slice(-a2aHistoryMessagesMax) : history };
}

/** Moves the task to `status`; an agent message in the status also joins the history (as the SDKs do). */
export function applyStatus(task: Task, status: TaskStatus): Task {
  if (!canTransition(task.status.state, status.state)) throw invalidAgentResponse(`task state ${task.status.state} → ${status.state} is not a transition`);
  const next: Task = { ...task, status };
  return status.message ? appendHistory(next, status.message) : next;
}

export function applyArtifact(task: Task, event: TaskArtifactUpdateEvent): Task {
  const artifacts = [...(task.artifacts ?? [])];
  const index = artifacts.findIndex((a) => a.artifactId === event.artifact.artifactId);
  let artifact: Artifact = event.artifact;
  if (event.append && index !== -1) {
    const prior = artifacts[index]!;
    artifact = { ...prior, ...event.artifact, parts: [...prior.parts, ...event.artifact.parts] };
  }
  if (artifact.parts.length > a2aArtifactPartsMax) throw invalidAgentResponse(`artifact ${artifact.artifactId}: more than ${a2aArtifactPartsMax} parts`);
  if (index === -1) artifacts.push(artifact);
  else artifacts[index] = artifact;
  if (artifacts.length > a2aArtifactsMax) throw invalidAgentResponse(`task ${task.id}: more than ${a2aArtifactsMax} artifacts`);
  return { ...task, artifacts };
}

/** The task as a response shows it: `historyLength` 0 drops history, N keeps the N newest (A2A 1.0 §3.2.4). */
export function viewTask(task: Task, options: { historyLength?: number | undefined; includeArtifacts?: boolean }): Task {
  let view: Task = task;
  const { history, artifacts, ...rest } = task;
  if (options.historyLength !== undefined || options.includeArtifacts === false) {
    view = { ...rest };
    const kept = options.historyLength === undefined ? history : options.historyLength === 0 ? undefined : history?.slice(-options.historyLength);
    if (kept && kept.length > 0) view = { ...view, history: kept };
    if (options.includeArtifacts !== false && artifacts && artifacts.length > 0) view = { ...view, artifacts };
  }
  return view;
}
