/**
 * Calls that come while a step is in flight wait and go together in the next step: one step in flight
 * at a time, however many callers. A shared database answers a statement for many rows in about the
 * time it answers one, and a process pays for each statement it sends (its writes to the socket, the
 * driver's parsing): gathered, what costs a statement per request under load costs one per step.
 * When nothing is in flight a call goes at once, alone: gathering adds no wait to a quiet process.
 */

/** Answers a step's questions, in their order; a step that fails fails each of its callers. */
export type Step<Q, A> = (questions: Q[]) => Promise<A[]>;

/** Most questions in one step: a larger gathering waits for the next. */
const MAX_STEP = 256;

interface Waiting<Q, A> {
  question: Q;
  resolve: (answer: A) => void;
  reject: (error: unknown) => void;
}

export function gathering<Q, A>(step: Step<Q, A>): (question: Q) => Promise<A> {
  let waiting: Waiting<Q, A>[] = [];
  let sending = false;

  async function send(): Promise<void> {
    sending = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MAX_STEP);
      waiting = waiting.slice(MAX_STEP);
      try {
        const answers = await step(batch.map((each) => each.question));
        batch.forEach((each, i) => each.resolve(answers[i]));
      } catch (error) {
        for (const each of batch) each.reject(error);
      }
    }
    sending = false;
  }

  return (question) => {
    const answer = new Promise<A>((resolve, reject) => waiting.push({ question, resolve, reject }));
    if (!sending) void send();
    return answer;
  };
}
