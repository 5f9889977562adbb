import type { Node, NodeMessage, NodeMessageInFlow } from 'node-red';

/** What a node does with each input message: one job on the device, whose result goes onto the message. */
export interface InputJob<M extends NodeMessageInFlow, R> {
  /** Checks the message and starts the job; throws (or rejects) when the message or the device can't. */
  start(msg: M): Promise<R>;
  /** Puts the job's result onto the message, which is then sent. */
  answer(msg: M, result: R): void;
  /** The error a refused message or a failed job ends the input with, so that a Catch node sees it. */
  failure(error: unknown): Error;
}

/** Answers each input of `node` with one job: the message, with the result, sent once the job is done. */
export function answerEachInput<M extends NodeMessageInFlow, R>(node: Node, job: InputJob<M, R>): void {
  node.on(
    'input',
    (
      input: NodeMessageInFlow,
      send: (msg: NodeMessage | Array<NodeMessage | NodeMessage[] | null>) => void,
      done: (err?: Error) => void,
    ) => {
      const msg = input as M;
      let running: Promise<R>;
      try {
        running = job.start(msg);
      } catch (error) {
        done(job.failure(error));
        return;
      }
      running
        .then((result) => {
          job.answer(msg, result);
          send(msg);
          done();
        })
        .catch((error: unknown) => done(job.failure(error)));
    },
  );
}
