import should from 'should';
import { diffZones, hasChanges } from '../../src/zones';
import { audience, presenter, zone } from './fixtures';

describe('zones/diff', () => {
  it('finds no change between identical reads', () => {
    const diff = diffZones([presenter, audience], structuredClone([presenter, audience]));
    should(diff).eql({ added: [], removed: [], changed: [] });
    should(hasChanges(diff)).be.false();
  });

  it('ignores a new order of the zones', () => {
    should(hasChanges(diffZones([presenter, audience], [audience, presenter]))).be.false();
  });

  it("across sources ignores a field only one endpoint carries (the layout's `on`)", () => {
    const fromLayout = [
      { ...presenter, on: true },
      { ...audience, on: true },
    ];
    should(hasChanges(diffZones([presenter, audience], fromLayout, { acrossSources: true }))).be.false();
    should(hasChanges(diffZones(fromLayout, [presenter, audience], { acrossSources: true }))).be.false();
  });

  it('across sources still reports a change of a field both carry', () => {
    const before = [{ ...presenter, on: true }];
    const after = [{ ...presenter, on: false, label: 'Stage' }];
    should(diffZones(before, after, { acrossSources: true }).changed).have.length(1);
  });

  it('from one source reports a field that appears', () => {
    should(diffZones([presenter], [{ ...presenter, on: true }]).changed).have.length(1);
  });

  it('reports an added zone', () => {
    const diff = diffZones([presenter], [presenter, audience]);
    should(diff).eql({ added: [audience], removed: [], changed: [] });
    should(hasChanges(diff)).be.true();
  });

  it('reports a removed zone', () => {
    const diff = diffZones([presenter, audience], [audience]);
    should(diff).eql({ added: [], removed: [presenter], changed: [] });
    should(hasChanges(diff)).be.true();
  });

  it('reports everything as added from an empty room, and removed into one', () => {
    should(diffZones([], [presenter, audience]).added).eql([presenter, audience]);
    should(diffZones([presenter, audience], []).removed).eql([presenter, audience]);
  });

  it('reports a moved corner as a change with before and after', () => {
    const moved = zone(presenter.id, [-2000, 1000, 2500, 3000], { label: presenter.label });
    const diff = diffZones([presenter, audience], [moved, audience]);
    should(diff).eql({
      added: [],
      removed: [],
      changed: [{ id: presenter.id, before: presenter, after: moved }],
    });
  });

  it('reports a renamed zone as a change', () => {
    const renamed = { ...presenter, label: 'Stage' };
    should(diffZones([presenter], [renamed]).changed).have.length(1);
  });

  it('reports a change deep inside a device field', () => {
    const before = { ...presenter, settings: { gain: { db: 3 } } };
    const after = { ...presenter, settings: { gain: { db: 4 } } };
    should(diffZones([before], [after]).changed).have.length(1);
  });

  it('reports a device field that appears or disappears', () => {
    should(diffZones([presenter], [{ ...presenter, on: false }]).changed).have.length(1);
    should(diffZones([{ ...presenter, on: false }], [presenter]).changed).have.length(1);
  });

  it('reports a changed type list', () => {
    should(diffZones([presenter], [{ ...presenter, types: ['Switching', 'Muting'] }]).changed).have.length(1);
  });

  it('ignores key order at every depth', () => {
    const reordered = {
      id: presenter.id,
      label: presenter.label,
      geometry: { point2: { y: 3000, x: 2000 }, point1: { y: 1000, x: -2000 } },
      types: ['Switching'],
    };
    should(hasChanges(diffZones([presenter], [reordered]))).be.false();
  });

  it('ignores the order of types, which the spec makes a set', () => {
    const before = { ...presenter, types: ['Switching', 'Muting'] };
    const after = { ...presenter, types: ['Muting', 'Switching'] };
    should(hasChanges(diffZones([before], [after]))).be.false();
  });

  it('treats swapped or other corners of the same rectangle as unchanged', () => {
    const swapped = zone(presenter.id, [2000, 3000, -2000, 1000], { label: presenter.label });
    const otherDiagonal = zone(presenter.id, [-2000, 3000, 2000, 1000], { label: presenter.label });
    should(hasChanges(diffZones([presenter], [swapped]))).be.false();
    should(hasChanges(diffZones([presenter], [otherDiagonal]))).be.false();
  });

  it('still sees a change in extra corner fields when corners are swapped', () => {
    const before = zone('a', [0, 0, 10, 10]);
    before.geometry.point1 = { x: 0, y: 0, z: 100 } as typeof before.geometry.point1;
    const swapped = zone('a', [10, 10, 0, 0]);
    swapped.geometry.point2 = { x: 0, y: 0, z: 100 } as typeof swapped.geometry.point2;
    should(hasChanges(diffZones([before], [swapped]))).be.false();
    const changed = zone('a', [10, 10, 0, 0]);
    changed.geometry.point2 = { x: 0, y: 0, z: 200 } as typeof changed.geometry.point2;
    should(hasChanges(diffZones([before], [changed]))).be.true();
  });

  it('reports the same zone object listed twice and kept once as removed once', () => {
    const diff = diffZones([presenter, presenter], [presenter]);
    should(diff).eql({ added: [], removed: [presenter], changed: [] });
  });

  it('reports a zone that changed and a zone that stayed, in one diff', () => {
    const renamed = { ...audience, label: 'Back rows' };
    const diff = diffZones([presenter, audience], [structuredClone(presenter), renamed]);
    should(diff).eql({
      added: [],
      removed: [],
      changed: [{ id: audience.id, before: audience, after: renamed }],
    });
  });

  it('pairs repeated ids in order', () => {
    const firstA = zone('a', [0, 0, 1, 1]);
    const secondA = zone('a', [5, 5, 6, 6]);
    should(hasChanges(diffZones([firstA, secondA], [firstA, secondA]))).be.false();
    const diff = diffZones([firstA, secondA], [firstA]);
    should(diff).eql({ added: [], removed: [secondA], changed: [] });
  });
});
