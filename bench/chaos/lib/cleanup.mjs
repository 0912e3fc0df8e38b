// Everything the suite starts (server children, PostgreSQL clusters, tmpfs mounts, temp dirs) is
// registered here, so a failed scenario, Ctrl-C or the suite's watchdog still leaves the machine
// as it found it. Undo steps run newest first; each runs once, and a failing one does not stop the rest.

const steps = [];

/** Registers an undo step; returns a function that runs it now (and removes it from the list). */
export function onCleanup(label, undo) {
  const step = { label, undo, done: false };
  steps.push(step);
  return async () => {
    await runStep(step);
    const i = steps.indexOf(step);
    if (i >= 0) steps.splice(i, 1);
  };
}

async function runStep(step) {
  if (step.done) return;
  step.done = true;
  try {
    await step.undo();
  } catch (error) {
    console.error(`cleanup "${step.label}" failed: ${error instanceof Error ? error.message : error}`);
  }
}

export async function cleanupAll() {
  while (steps.length) await runStep(steps.pop());
}
