import assert from 'node:assert/strict';
import fc from 'fast-check';
import { programRisks } from '../../../../src/core/tools/programRisks';
import { riskyArgument } from '../../../../src/core/tools/riskyArguments';

const name = (word: string): string => word;

describe('riskyArgument: a build tool\'s further targets', () => {
  const target = /another target, goal or task/;

  it('attack: a rule naming a target does not allow another target, goal or task after it', () => {
    const cases: [rule: string, further: string[]][] = [
      ['make test', ['install']],
      ['make test', ['-k', 'install']],
      ['make test', ['-j', 'install']],
      ['make test', ['-j', '4', 'install']],
      ['make test', ['--jobs', 'deploy']],
      ['gmake check', ['clean']],
      ['ninja test', ['install']],
      ['./gradlew test', ['publish']],
      ['gradle test', ['--tests', '-x', 'publish']],
      ['gradle test', ['--max-workers', 'publish']],
      ['mvn test', ['deploy']],
      ['./mvnw -q test', ['exec:exec']],
      ['rake test', ['db:drop']],
      ['ant test', ['deploy']],
      ['just test', ['release']],
    ];
    for (const [rule, further] of cases) {
      const found = riskyArgument(rule.split(' '), further, (word) => word.split('/').at(-1) ?? word);
      assert.equal(found?.argument, further.at(-1), `${rule} ${further.join(' ')}`);
      assert.match(found?.why ?? '', target);
    }
  });

  it('leaves the values of its options alone, and any target to a rule that names none', () => {
    const cases: [rule: string, further: string[]][] = [
      ['make test', ['-j', '4']],
      ['make test', ['-j4', '-k']],
      ['make test', ['-l', '2.5']],
      ['make test', ['--', '-k']],
      ['ninja test', ['-j', '8', '-k', '0']],
      ['./gradlew test', ['--tests', 'com.example.FooTest', '-x', 'lint', '--console', 'plain', '-P', 'ci=true']],
      ['mvn test', ['-T', '4', '-P', 'ci', '-am']],
      ['make', ['install']],
      ['make -k', ['install', 'test']],
      ['make -j 4', ['install']],
      ['make -C sub', ['check']],
      ['./gradlew -q', ['publish']],
      ['npm test', ['install']],
      ['cargo test', ['parser']],
    ];
    for (const [rule, further] of cases) {
      assert.equal(riskyArgument(rule.split(' '), further, (word) => word.split('/').at(-1) ?? word), undefined, `${rule} ${further.join(' ')}`);
    }
  });

  it('reads the value of each option that takes one, in the rule and after it: a rule whose words are options and their values names no target', () => {
    const make = ['-j', '--jobs', '-l', '--load-average', '--max-load'];
    const makeWords = ['-C', '--directory', '-f', '--file', '--makefile', '-I', '--include-dir', '-o', '--old-file', '--assume-old', '-W', '--what-if', '--new-file', '--assume-new'];
    const gradle = [
      '--tests', '-x', '--exclude-task', '--console', '--warning-mode', '-P', '--project-prop', '-D', '--system-prop', '-p', '--project-dir', '-b', '--build-file', '-c',
      '--settings-file', '-g', '--gradle-user-home', '-I', '--init-script',
    ];
    const maven = [
      '-pl', '--projects', '-P', '--activate-profiles', '-T', '--threads', '-rf', '--resume-from', '-f', '--file', '-s', '--settings', '-gs', '--global-settings', '-t',
      '--toolchains', '-l', '--log-file', '-D', '--define', '-b', '--builder',
    ];
    const takesWord: [programs: string[], options: string[]][] = [
      [['make', 'gmake'], makeWords],
      [['ninja'], ['-C', '-f', '-t', '-d', '-w']],
      [['gradle', 'gradlew'], gradle],
      [['mvn', 'mvnw'], maven],
      [['rake'], ['-f', '--rakefile', '-I', '--libdir', '-r', '--require']],
      [['ant'], ['-f', '-file', '-buildfile', '-lib', '-logfile', '-l', '-propertyfile']],
      [['just'], ['-f', '--justfile', '-d', '--working-directory', '--set']],
    ];
    const takesNumber: [programs: string[], options: string[]][] = [[['make', 'gmake'], make], [['ninja'], ['-j', '-k', '-l']], [['gradle', 'gradlew'], ['--max-workers']], [['rake'], ['-j', '--jobs']]];
    for (const [programs, options] of [...takesWord, ...takesNumber]) {
      for (const program of programs) {
        for (const option of options) {
          const value = takesNumber.some(([named, numbered]) => named.includes(program) && numbered.includes(option)) ? '12' : 'value';
          assert.equal(riskyArgument([program, option, value], ['another'], name), undefined, `${program} ${option} ${value} ... allows any target`);
          assert.equal(riskyArgument([program, 'all', option], [value], name)?.why.includes('target') === true, false, `${program} all ${option} ... ${value}`);
        }
      }
    }
    for (const [program, option] of [['make', '-j'], ['ninja', '-k'], ['gradle', '--max-workers'], ['rake', '--jobs']] as const) {
      assert.equal(riskyArgument([program, 'all'], [option, 'install'], name)?.argument, 'install', `${program} ${option} takes only a number`);
    }
  });

  it('takes a number as a value only when the whole word is one (make test -j 4install runs 4install), and a bare number as a target', () => {
    for (const further of [['-j', '4install'], ['-j', 'v2'], ['-l', '2.x'], ['-l', 'x2.5'], ['7']]) assert.equal(riskyArgument(['make', 'test'], further, name)?.argument, further.at(-1), further.join(' '));
    for (const further of [['-j', '16'], ['-l', '2.25']]) assert.equal(riskyArgument(['make', 'test'], further, name), undefined, further.join(' '));
  });

  it('property: after a rule naming a target, any further word that is no option or value asks, wherever it stands', () => {
    // A target named as a program with risks of its own (`make cc`) takes that program's too, erring towards asking
    // (`make cc -B x` asks about gcc's `-B`, asserted below): the property is about targets, so those names are left out.
    const word = fc.stringMatching(/^[a-z:][a-z0-9:_.-]{0,8}$/).filter((named) => programRisks.byProgram[named] === undefined);
    const option = fc.constantFrom('-k', '-s', '--keep-going', '-j4', '--silent', '-B');
    fc.assert(
      fc.property(fc.constantFrom('make', 'gmake', 'ninja', 'rake', 'just'), word, fc.array(option, { maxLength: 3 }), word, fc.array(option, { maxLength: 3 }),
        (program, target, before, another, after) => {
          const found = riskyArgument([program, target], [...before, another, ...after], name);
          assert.deepEqual(found, { argument: another, why: 'names another target, goal or task to run besides the one the rule allows' });
        }),
    );
    // Found by a clean-clone run (seed 2081412967): a target named `cc` made gcc's `-B` ask first.
    assert.equal(riskyArgument(['make', 'cc'], ['-B', ':'], name)?.argument, '-B');
  });
});
