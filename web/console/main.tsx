import { render } from 'preact';
import { App } from './app.tsx';
import './console.css';
import './layout.css';
import './charts.css';
import './previews.css';
import './journeys.css';

render(<App />, document.getElementById('app')!);
