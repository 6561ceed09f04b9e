import { createPinia } from 'pinia'
import { createApp } from 'vue'
import { createApi, provideApi } from './api'
import App from './App.vue'
import { createAppRouter } from './router'
import './styles.css'

provideApi(createApi())
createApp(App).use(createPinia()).use(createAppRouter()).mount('#app')
