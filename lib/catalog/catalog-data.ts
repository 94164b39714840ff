/**
 * The catalog data files, imported statically (bundlers and tsx both see them) and validated once
 * by lib/catalog/catalog-schema parseCatalog. To add a provider: add data/<slug>.json and one line
 * here; the catalog test fails when a file in data/ is not listed.
 */
import { parseCatalog, type Catalog } from './catalog-schema';
import AmazonBedrock from './data/amazon-bedrock.json';
import Anthropic from './data/anthropic.json';
import Azure from './data/azure.json';
import Centml from './data/centml.json';
import Cerebras from './data/cerebras.json';
import Deepinfra from './data/deepinfra.json';
import Fireworks from './data/fireworks.json';
import GoogleGemini from './data/google-gemini.json';
import GoogleVertex from './data/google-vertex.json';
import Groq from './data/groq.json';
import KlusterAi from './data/kluster-ai.json';
import Lambda from './data/lambda.json';
import Mistral from './data/mistral.json';
import Models from './data/models.json';
import Novita from './data/novita.json';
import Nvidia from './data/nvidia.json';
import Openai from './data/openai.json';
import Sambanova from './data/sambanova.json';
import Together from './data/together.json';
import Xai from './data/xai.json';

/** Every data file by name (models.json and one file per provider). */
export const CATALOG_FILES: Array<{ name: string; data: unknown }> = [
  { name: 'amazon-bedrock.json', data: AmazonBedrock },
  { name: 'anthropic.json', data: Anthropic },
  { name: 'azure.json', data: Azure },
  { name: 'centml.json', data: Centml },
  { name: 'cerebras.json', data: Cerebras },
  { name: 'deepinfra.json', data: Deepinfra },
  { name: 'fireworks.json', data: Fireworks },
  { name: 'google-gemini.json', data: GoogleGemini },
  { name: 'google-vertex.json', data: GoogleVertex },
  { name: 'groq.json', data: Groq },
  { name: 'kluster-ai.json', data: KlusterAi },
  { name: 'lambda.json', data: Lambda },
  { name: 'mistral.json', data: Mistral },
  { name: 'models.json', data: Models },
  { name: 'novita.json', data: Novita },
  { name: 'nvidia.json', data: Nvidia },
  { name: 'openai.json', data: Openai },
  { name: 'sambanova.json', data: Sambanova },
  { name: 'together.json', data: Together },
  { name: 'xai.json', data: Xai },
];

/** The validated catalog (throws at import with every problem listed when a data file is invalid). */
export const CATALOG: Catalog = parseCatalog(CATALOG_FILES);
