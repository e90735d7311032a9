import { useProject } from '../context.ts';
import { Section } from '../layout.tsx';
import { href } from '../route.ts';

/** What a new project does first: the web SDK on its site, a device subscribed, a test push to it. */
export function FirstSteps() {
  const { project } = useProject();
  const snippet = [
    '<script type="module">',
    `  import PushEngine from '${location.origin}/sdk/web.js';`,
    `  await PushEngine.initialize({ projectId: '${project.id}', clientKey: 'YOUR_CLIENT_KEY', baseUrl: '${location.origin}' });`,
    "  document.querySelector('#notify').onclick = () => PushEngine.subscribe();",
    '</script>',
  ].join('\n');
  return (
    <Section title="First steps" testId="first-steps">
      <ol class="steps">
        <li>
          <strong>Add push to your site.</strong> Paste this into your pages, with the client key your project was
          created with (Project, then Rotate keys makes a new one), and put a file <code>/push-engine-sw.js</code>{' '}
          holding <code>importScripts('{location.origin}/sdk/service-worker.js');</code> at your site's root.
          <pre class="snippet">
            <code>{snippet}</code>
          </pre>
        </li>
        <li>
          <strong>Subscribe your own browser</strong> on your site: it shows up on the{' '}
          <a href={href('devices')}>Devices</a> screen.
        </li>
        <li>
          <strong>Send yourself a test</strong> from the <a href={href('send')}>Send</a> screen: choose "Device" and
          your device's id.
        </li>
      </ol>
    </Section>
  );
}
