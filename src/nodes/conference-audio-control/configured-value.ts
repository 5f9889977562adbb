import type { Node, NodeAPI, NodeMessage } from 'node-red';
import { invalidInput } from '../glue/errors';
import { isContextType, wordOf } from './definition';

/** The value a control node is configured with, as its TypedInput type says to read it. */
export interface ConfiguredValue {
  /** Why the value cannot be used, found at deploy (a literal that does not read); each input is refused. */
  readonly problem: string | undefined;
  /** The value for one input; rejects with INVALID_INPUT when it cannot be read. */
  read(msg: NodeMessage): Promise<unknown>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads `value` of TypedInput type `valueType` with Node-RED's own RED.util.evaluateNodeProperty: a value
 * from the message, a context or the environment for each input, any other once. An action's word (a type
 * without a value, such as `toggle`) is its own value.
 */
export function configuredValue(RED: NodeAPI, node: Node, value: string, valueType: string): ConfiguredValue {
  if (isContextType(valueType)) {
    return {
      problem: undefined,
      read: (msg) =>
        new Promise<unknown>((resolve, reject) => {
          // The callback form also reads context stores that answer asynchronously.
          RED.util.evaluateNodeProperty(value, valueType, node, msg, (error, result) =>
            error ? reject(error) : resolve(result),
          );
        }).catch((error: unknown) => {
          throw invalidInput(`The value ${valueType}.${value} cannot be read: ${messageOf(error)}`);
        }),
    };
  }
  let fixed: unknown = wordOf(valueType);
  let problem: string | undefined;
  if (fixed === undefined) {
    try {
      fixed = RED.util.evaluateNodeProperty(value, valueType, node, {});
    } catch (error) {
      problem = `The ${valueType} value cannot be read: ${messageOf(error)}`;
    }
  }
  return {
    problem,
    read: () => (problem === undefined ? Promise.resolve(fixed) : Promise.reject(invalidInput(problem))),
  };
}
