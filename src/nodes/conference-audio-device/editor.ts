import type { DeviceProperty, SettingProblem } from '../../api/settings-rules';
import {
  ACCOUNTS,
  checkDeviceProperty,
  DEVICE_DEFAULTS,
  DEVICE_PROPERTIES,
  TLS_MODES,
} from '../../api/settings-rules';
import { fillChoices } from '../editor-choices';
import {
  type AnsweredError,
  catalogue,
  isTranslated,
  localisedMessage,
  postJson,
  validator,
  whileWaiting,
} from '../editor-common';
import { IMPORT_DEFAULTS, TYPE } from './definition';

type DeviceProperties = { name: string; audioInterval: string | number } & Record<
  DeviceProperty,
  string | number
>;

interface TestAnswer {
  ok: boolean;
  error?: AnsweredError;
  zonesSupported?: boolean;
  count?: number;
  fingerprint?: string;
  vendor?: { word: string };
}

interface CertificateAnswer {
  ok: boolean;
  error?: AnsweredError;
  fingerprint256?: string;
  subject?: string;
}

interface TrustAnswer {
  ok: boolean;
  fingerprint?: string | null;
  source?: 'configured' | 'first use' | null;
  mismatch?: { seen: string; expected: string } | null;
}

const t = catalogue(TYPE);
const field = (property: DeviceProperty | 'password') => $(`#node-config-input-${property}`);

/** The catalogue's text for the reason (or the property), else the rules' English message. */
function problemText(problem: SettingProblem): string {
  for (const key of [`errors.${problem.reason}`, `errors.${problem.property}`]) {
    const text = t(key);
    if (isTranslated(text, key)) return text;
  }
  return problem.message;
}

/**
 * A validator with the runtime's own rules, so the dialog flags exactly what a deploy would refuse. A
 * `${VAR}` passes here and is judged at runtime.
 */
function deviceValidator(property: DeviceProperty) {
  return validator(function (this: unknown, value: unknown) {
    const tls = field('tls');
    const tlsMode = tls.length ? tls.val() : (this as Partial<DeviceProperties>).tls;
    const problem = checkDeviceProperty(property, value, { editing: true, tlsMode });
    return problem ? problemText(problem) : undefined;
  });
}

/** The dialog's current values, saved or not; the password field holds the unchanged marker when untouched. */
function dialogValues(id: string): Record<string, unknown> {
  const values: Record<string, unknown> = { id, password: field('password').val() };
  for (const property of DEVICE_PROPERTIES) values[property] = field(property).val();
  return values;
}

function showResult(text: string, ok?: boolean) {
  $('#conference-audio-test-result')
    .text(text)
    .toggleClass('conference-audio-ok', ok === true)
    .toggleClass('conference-audio-failed', ok === false);
}

function failureText(answer: { error?: AnsweredError } | undefined, xhr?: JQuery.jqXHR): string {
  if (answer?.error) {
    return t('result.failed', { code: answer.error.code, message: localisedMessage(answer.error) });
  }
  return t('result.failed', { code: `HTTP_${xhr ? xhr.status : '?'}`, message: xhr ? xhr.statusText : '' });
}

/** Fills a select with the rules' choices, labelled from the catalogue (`<group>.<choice>`): the saved one, else the first. */
function fillRuleChoices(group: 'account' | 'tls', choices: readonly string[], saved: unknown) {
  const selected = typeof saved === 'string' && choices.includes(saved) ? saved : (choices[0] ?? '');
  fillChoices(field(group), choices, (choice) => t(`${group}.${choice}`), selected);
}

function offerVendorWord(word: string) {
  $('#conference-audio-use-vendor').remove();
  $(
    '<button type="button" class="red-ui-button" id="conference-audio-use-vendor" style="margin-left: 8px;"></button>',
  )
    .text(t('label.useVendor', { word }))
    .on('click', (clicked) => {
      clicked.preventDefault();
      field('vendor').val(word).trigger('change');
      $('#conference-audio-use-vendor').remove();
    })
    .insertAfter('#conference-audio-test-connection');
}

function testConnection(id: string) {
  showResult(t('result.testing'));
  $('#conference-audio-use-vendor').remove();
  const request = postJson('conference-audio/test-connection', dialogValues(id));
  whileWaiting($('#conference-audio-test-connection'), request);
  request
    .done((answer: TestAnswer) => {
      if (!answer?.ok) {
        showResult(failureText(answer), false);
        return;
      }
      let text = answer.zonesSupported
        ? t('result.connected', { count: answer.count ?? 0 })
        : t('result.noZones');
      if (answer.fingerprint)
        text += ` — ${t('result.fingerprintSeen', { fingerprint: answer.fingerprint })}`;
      if (answer.vendor) text += ` — ${t('result.vendorFound', answer.vendor)}`;
      showResult(text, true);
      // The device named its own vendor word: offer to put it in the field (Advanced).
      if (answer.vendor) offerVendorWord(answer.vendor.word);
    })
    .fail((xhr: JQuery.jqXHR) => showResult(failureText(xhr.responseJSON, xhr), false));
}

function readCertificate(id: string) {
  showResult(t('result.reading'));
  const values = dialogValues(id);
  const request = postJson('conference-audio/certificate', {
    host: values.host,
    port: values.port,
    timeout: values.timeout,
  });
  whileWaiting($('#conference-audio-read-certificate'), request);
  request
    .done((answer: CertificateAnswer) => {
      if (!answer?.ok || answer.fingerprint256 === undefined) {
        showResult(failureText(answer), false);
        return;
      }
      field('fingerprint').val(answer.fingerprint256).trigger('change');
      if (field('tls').val() !== 'pin') field('tls').val('pin').trigger('change');
      showResult(t('result.certificate', { subject: answer.subject || '?' }), true);
    })
    .fail((xhr: JQuery.jqXHR) => showResult(failureText(xhr.responseJSON, xhr), false));
}

/** What the deployed node trusts (learned on first use, or pinned), and a certificate it refused. */
function showTrust(id: string) {
  postJson('conference-audio/trusted-certificate', { id }).done((answer: TrustAnswer) => {
    if (!answer?.ok) return;
    const mismatch = answer.mismatch;
    if (mismatch) {
      $('#conference-audio-trust')
        .text(t('trust.mismatch', { seen: mismatch.seen, expected: mismatch.expected }))
        .css('color', 'var(--red-ui-text-color-error, #c00)')
        .show();
      $('#conference-audio-trust-accept-row').show();
      $('#conference-audio-trust-accept').on('click', (event) => {
        event.preventDefault();
        // Takes effect on deploy: the accepted certificate becomes the pin, the old one is forgotten.
        field('fingerprint').val(mismatch.seen).trigger('change');
        $('#conference-audio-trust-accept-row').hide();
      });
    } else if (answer.fingerprint) {
      const key = answer.source === 'configured' ? 'trust.trustedConfigured' : 'trust.trusted';
      $('#conference-audio-trust')
        .text(t(key, { fingerprint: answer.fingerprint }))
        .show();
    }
  });
}

function showAdvanced(open: boolean) {
  $('#conference-audio-advanced').toggle(open);
  $('#conference-audio-advanced-toggle')
    .attr('aria-expanded', String(open))
    .find('i')
    .toggleClass('fa-caret-right', !open)
    .toggleClass('fa-caret-down', open);
}

// Filled in before the editor validates the imported nodes.
RED.events.on('nodes:add', (node: Record<string, unknown> | undefined) => {
  if (!node || node.type !== TYPE) return;
  for (const [property, value] of Object.entries(IMPORT_DEFAULTS)) {
    if (node[property] === undefined) node[property] = value;
  }
});

RED.nodes.registerType<DeviceProperties, { password: string }>('conference-audio-device', {
  category: 'config',
  paletteLabel: () => t('paletteLabel'),
  defaults: {
    name: { value: '' },
    host: { value: '', required: true, validate: deviceValidator('host') },
    // Blank port, client id, vendor word and timeout mean the defaults, as at runtime.
    port: { value: DEVICE_DEFAULTS.port, validate: deviceValidator('port') },
    account: { value: DEVICE_DEFAULTS.account, required: true, validate: deviceValidator('account') },
    clientId: { value: DEVICE_DEFAULTS.clientId, validate: deviceValidator('clientId') },
    vendor: { value: DEVICE_DEFAULTS.vendor, validate: deviceValidator('vendor') },
    tls: { value: DEVICE_DEFAULTS.tls, required: true, validate: deviceValidator('tls') },
    fingerprint: { value: '', validate: deviceValidator('fingerprint') },
    ca: { value: '', validate: deviceValidator('ca') },
    timeout: { value: DEVICE_DEFAULTS.timeoutSeconds, validate: deviceValidator('timeout') },
    audioInterval: {
      value: IMPORT_DEFAULTS.audioInterval,
      validate: deviceValidator('audioInterval'),
    },
  },
  credentials: {
    password: { type: 'password' },
  },
  label() {
    if (this.name) return this.name;
    const host = String(this.host ?? '');
    if (host === '') return TYPE;
    const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
    return Number(this.port) === DEVICE_DEFAULTS.port ? shown : `${shown}:${this.port}`;
  },
  oneditprepare() {
    const id = this.id;
    fillRuleChoices('account', ACCOUNTS, this.account);
    fillRuleChoices('tls', TLS_MODES, this.tls);
    const showTlsRows = () => {
      const mode = field('tls').val();
      $('#conference-audio-fingerprint-row').toggle(mode === 'pin');
      $('#conference-audio-ca-row').toggle(mode === 'ca');
    };
    field('tls').on('change', showTlsRows);
    showTlsRows();
    $('#conference-audio-advanced-toggle').on('click', (event) => {
      event.preventDefault();
      showAdvanced(!$('#conference-audio-advanced').is(':visible'));
    });
    showAdvanced(false);
    $('#conference-audio-test-connection').on('click', (event) => {
      event.preventDefault();
      testConnection(id);
    });
    $('#conference-audio-read-certificate').on('click', (event) => {
      event.preventDefault();
      readCertificate(id);
    });
    if (id && !(this as { changed?: boolean }).changed) showTrust(id);
  },
});
