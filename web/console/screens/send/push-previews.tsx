import type { RenderedContent } from '../../../../src/schemas/notification.ts';

export interface PreviewButton {
  text: string;
}

const platforms = [
  { name: 'ios', label: 'iOS', app: 'YOUR APP', maxButtons: 4 },
  { name: 'android', label: 'Android', app: 'Your app', maxButtons: 3 },
  { name: 'chrome', label: 'Chrome', app: location.host, maxButtons: 2 },
] as const;

/**
 * The push as each platform draws it: iOS a rounded banner with the image beside the text, Android a card with the
 * image under it, Chrome a desktop notification naming the site. Buttons show as many as the platform shows.
 */
export function PushPreviews({ content, buttons }: { content: RenderedContent; buttons: PreviewButton[] }) {
  return (
    <div class="push-previews">
      {platforms.map((platform) => (
        <figure key={platform.name} class={`push-preview push-${platform.name}`} data-platform={platform.name}>
          <figcaption>{platform.label}</figcaption>
          <div class="push-card">
            <small class="push-app">{platform.app}</small>
            <div class="push-text">
              {content.title && <strong>{content.title}</strong>}
              <p>{content.body}</p>
            </div>
            {content.imageUrl && <img class="push-image" src={content.imageUrl} alt="" />}
            {buttons.length > 0 && (
              <div class="push-buttons">
                {buttons.slice(0, platform.maxButtons).map((button, index) => (
                  <span key={index} class="push-button">
                    {button.text || `Button ${index + 1}`}
                  </span>
                ))}
              </div>
            )}
          </div>
        </figure>
      ))}
    </div>
  );
}
