/**
 * Whether every test of a file (or suite) ran: none left out by a name filter (`-t`), `.skip` or
 * `.only` elsewhere. A suite whose cases come from several tests is published only then.
 */
interface TaskLike {
  type: string;
  mode: string;
  tasks?: readonly TaskLike[];
  result?: { state?: string };
}

export function everyTestRan(root: TaskLike): boolean {
  let tests = 0;
  const todo: TaskLike[] = [root];
  for (let t = todo.pop(); t; t = todo.pop()) {
    if (t.tasks) { todo.push(...t.tasks); continue; }
    if (t.type !== 'test') continue;
    tests++;
    if (t.mode !== 'run' || t.result?.state === 'skip') return false;
  }
  return tests > 0;
}
