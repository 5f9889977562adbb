/**
 * The choices a dialog makes from its node type's definition: a drop-down's options, a list of
 * checkboxes. Editor code, bundled into each node type's HTML by scripts/build.js; no Node.js API.
 */
import type { Setting } from './settings/node-settings';

/** Fills the drop-down `select` with one option per choice, each shown as `label` says, and selects `selected`. */
export function fillChoices<C extends string>(
  select: JQuery,
  choices: readonly C[],
  label: (choice: C) => string,
  selected: string,
): JQuery {
  select.empty();
  for (const choice of choices) select.append($('<option>').val(choice).text(label(choice)));
  return select.val(selected);
}

/**
 * A dialog's list of checkboxes, one per choice, each with the id `<idPrefix><choice>` (the dialog's code
 * and the browser tests find them by it).
 */
export function checkboxChoices<C extends string>(idPrefix: string) {
  const checkbox = (choice: C) => $(`#${idPrefix}${choice}`);
  return {
    checkbox,
    /** Puts one labelled checkbox per choice into `container`, those saved ticked (else the fallback's). */
    fill(
      container: JQuery,
      choices: readonly C[],
      saved: Setting<readonly C[]>,
      label: (choice: C) => string,
    ) {
      const checked = saved.ok ? saved.value : saved.fallback;
      container.empty();
      for (const choice of choices) {
        const box = $('<input type="checkbox" style="width: auto; margin: 0 4px 0 0;">')
          .attr('id', `${idPrefix}${choice}`)
          .prop('checked', checked.includes(choice));
        const row = $('<label style="width: auto; display: block;">');
        row.append(box, ' ', $('<span>').text(label(choice)));
        container.append(row);
      }
    },
    /** The choices ticked, in the order of `choices`. */
    ticked: (choices: readonly C[]) => choices.filter((choice) => checkbox(choice).prop('checked')),
  };
}
